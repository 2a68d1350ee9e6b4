import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { StrongPassword, Trim } from '../../infrastructure/http/field-decorators.js';
import {
  PASSWORD_CHANGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RESET,
  RECOVERABLE_ROLES,
  type RecoverableRole,
  TEXT_LIMITS,
} from '../../rules/accounts.js';

export class ChangePasswordDto {
  @ApiProperty()
  @IsNotEmpty({ message: PASSWORD_CHANGE.currentPassword.required })
  @IsString({ message: PASSWORD_CHANGE.currentPassword.required })
  @MaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_CHANGE.currentPassword.wrong })
  currentPassword: string;

  @ApiProperty({ description: 'The password rules of registration.' })
  @StrongPassword(PASSWORD_CHANGE.newPassword.required)
  newPassword: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ example: 'asha@example.in' })
  @Trim()
  @IsNotEmpty({ message: PASSWORD_RESET.email.required })
  @IsEmail({}, { message: PASSWORD_RESET.email.invalid })
  @MaxLength(TEXT_LIMITS.email, { message: PASSWORD_RESET.email.invalid })
  email: string;

  @ApiProperty({ enum: RECOVERABLE_ROLES })
  @IsIn(RECOVERABLE_ROLES, { message: PASSWORD_RESET.role.invalid })
  role: RecoverableRole;
}

export class ResetPasswordDto {
  @ApiProperty({ description: 'The token of the link in the mail.' })
  @IsNotEmpty({ message: PASSWORD_RESET.token.required })
  @IsString({ message: PASSWORD_RESET.token.required })
  @MaxLength(200, { message: PASSWORD_RESET.invalid })
  token: string;

  @ApiProperty({ description: 'The password rules of registration.' })
  @StrongPassword(PASSWORD_RESET.password.required)
  password: string;
}

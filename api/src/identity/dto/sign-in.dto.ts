import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptional, RequiredText } from '../../http/field-decorators.js';
import {
  ADMIN_SIGN_IN as A,
  MERCHANT_SIGN_IN as M,
  PASSWORD_MAX_LENGTH,
  USER_SIGN_IN as U,
} from '../../rules/accounts.js';

/** Passwords are never trimmed: spaces may be part of them. */
function Password(required: string, minLength: number, tooShort: string) {
  return (target: object, property: string) => {
    IsNotEmpty({ message: required })(target, property);
    IsString({ message: required })(target, property);
    MaxLength(PASSWORD_MAX_LENGTH)(target, property);
    MinLength(minLength, { message: tooShort })(target, property);
  };
}

export class UserSignInDto {
  @ApiProperty({ example: 'asha@example.in' })
  @RequiredText(U.email.required, 254)
  @IsEmail({}, { message: U.email.invalid })
  email: string;

  @ApiProperty({ example: 'Asha Rao' })
  @RequiredText(U.userName.required, 100)
  @MinLength(U.userName.minLength, { message: U.userName.tooShort })
  userName: string;

  @ApiProperty({ example: 'Shop@2026' })
  @Password(U.password.required, U.password.minLength, U.password.tooShort)
  password: string;
}

export class MerchantSignInDto {
  @ApiProperty({ example: 'glowadmin' })
  @RequiredText(M.userName.required, 100)
  @MinLength(M.userName.minLength, { message: M.userName.tooShort })
  userName: string;

  @ApiProperty({ example: 'Glow@2026' })
  @Password(M.password.required, M.password.minLength, M.password.tooShort)
  password: string;
}

export class AdminSignInDto {
  @ApiProperty({ example: 'admin' })
  @RequiredText(A.username.required, 100)
  username: string;

  @ApiPropertyOptional({ example: 'admin@offers.localhost' })
  @IsOptional()
  @IsEmail({}, { message: A.email.invalid })
  email?: string;

  @ApiProperty()
  @Password(A.password.required, 1, A.password.required)
  password: string;
}

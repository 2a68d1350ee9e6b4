import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  IsEmail,
  IsNotEmpty,
  IsString,
  isEmail,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateIf,
} from 'class-validator';
import { IsOptional, RequiredText } from '../../infrastructure/http/field-decorators.js';
import {
  ADMIN_SIGN_IN as A,
  MERCHANT_SIGN_IN as M,
  normaliseMobile,
  PASSWORD_MAX_LENGTH,
  TEXT_LIMITS,
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

/** An email address or an Indian mobile number (see `MOBILE_NUMBER`). */
function IsEmailOrMobile(message: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEmailOrMobile',
      target: target.constructor,
      propertyName,
      options: { message },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && (isEmail(value) || normaliseMobile(value) !== undefined),
      },
    });
}

export class UserSignInDto {
  @ApiPropertyOptional({
    example: 'asha@example.in',
    description: 'The email address (any case) or the mobile number (10 digits; +91 or 0 before it is fine).',
  })
  // Checked unless an older client sent `email` alone; when neither is sent, this is what is missing.
  @ValidateIf((body: UserSignInDto) => body.emailOrMobile !== undefined || body.email === undefined)
  @RequiredText(U.emailOrMobile.required, TEXT_LIMITS.email)
  @IsEmailOrMobile(U.emailOrMobile.invalid)
  emailOrMobile?: string;

  @ApiPropertyOptional({
    deprecated: true,
    description: 'What older clients send instead of `emailOrMobile`, with the same meaning.',
  })
  @ValidateIf((body: UserSignInDto) => body.emailOrMobile === undefined && body.email !== undefined)
  @RequiredText(U.email.required, TEXT_LIMITS.email)
  @IsEmailOrMobile(U.email.invalid)
  email?: string;

  /** Sent by older clients; a display name is not a credential, so it is not checked. */
  @ApiPropertyOptional({ deprecated: true, description: 'Ignored: the name is not a sign-in credential.' })
  @Allow()
  userName?: unknown;

  @ApiProperty({ example: 'Shop@2026' })
  @Password(U.password.required, U.password.minLength, U.password.tooShort)
  password: string;
}

export class MerchantSignInDto {
  @ApiProperty({
    example: 'glowadmin',
    description: 'The username, or the email address or mobile number the merchant registered with.',
  })
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

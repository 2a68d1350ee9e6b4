import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsOptional, RequiredText, Trim } from '../../infrastructure/http/field-decorators.js';
import { EMAIL_MAX_LENGTH, LANGUAGE_MESSAGE, LANGUAGES, type Language } from '../../rules/engagement.js';
import {
  GRIEVANCE_ANSWER,
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_FORM,
  type GrievanceCategory,
} from '../../rules/privacy.js';

/** The public grievance form, signed in or not. */
export class GrievanceDto {
  @ApiProperty({ example: 'Asha Rao' })
  @RequiredText(GRIEVANCE_FORM.name.required, GRIEVANCE_FORM.name.maxLength)
  name: string;

  @ApiProperty({ example: 'asha@example.in', description: 'Where the acknowledgement and the answer go.' })
  @Trim()
  @IsNotEmpty({ message: GRIEVANCE_FORM.email.required })
  @IsString({ message: GRIEVANCE_FORM.email.invalid })
  @MaxLength(EMAIL_MAX_LENGTH, { message: GRIEVANCE_FORM.email.invalid })
  @IsEmail({}, { message: GRIEVANCE_FORM.email.invalid })
  email: string;

  @ApiProperty({ enum: GRIEVANCE_CATEGORIES })
  @IsIn(GRIEVANCE_CATEGORIES, { message: GRIEVANCE_FORM.category.invalid })
  category: GrievanceCategory;

  @ApiProperty({ example: 'My data was not corrected' })
  @RequiredText(GRIEVANCE_FORM.subject.required, GRIEVANCE_FORM.subject.maxLength)
  subject: string;

  @ApiProperty()
  @RequiredText(GRIEVANCE_FORM.message.required, GRIEVANCE_FORM.message.maxLength)
  message: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: 'Language of the mails; the browser’s otherwise.' })
  @IsOptional()
  @IsIn(LANGUAGES, { message: LANGUAGE_MESSAGE })
  language?: Language;
}

/** An admin's answer to a grievance, mailed to the person. */
export class GrievanceAnswerDto {
  @ApiProperty()
  @RequiredText(GRIEVANCE_ANSWER.answer.required, GRIEVANCE_ANSWER.answer.maxLength)
  answer: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches } from 'class-validator';
import { Trim, WholeNumber } from '../../infrastructure/http/field-decorators.js';
import { TRACKING } from '../../rules/clicks.js';

const { subIdParam, cookieWindowDays } = TRACKING;

/** How the merchant's site receives the click id, and how long after a click a purchase counts. */
export class TrackingSettingsDto {
  @ApiProperty({
    example: 'subid',
    description: 'The query parameter the click id is added to on the way to the merchant’s site.',
  })
  @Trim()
  @IsNotEmpty({ message: subIdParam.required })
  @IsString({ message: subIdParam.invalid })
  @Matches(subIdParam.pattern, { message: subIdParam.invalid })
  subIdParam: string;

  @ApiProperty({ example: 30, description: 'Days after a click in which a reported purchase is credited.' })
  @WholeNumber(
    cookieWindowDays.required,
    cookieWindowDays.invalid,
    cookieWindowDays.min,
    cookieWindowDays.max,
  )
  cookieWindowDays: number;
}

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../infrastructure/http/field-decorators.js';
import { CLAIM_MESSAGES, CLAIM_RULES } from '../../rules/claims.js';

/** A JSON number (1299.5) is read as the decimal it was written as; text is trimmed. */
const decimalText = ({ value }: { value: unknown }) =>
  typeof value === 'number' && Number.isFinite(value)
    ? String(value)
    : typeof value === 'string'
      ? value.trim()
      : value;

/** A claim's fields (the invoice image comes as the multipart file `invoice`). */
export class FileClaimDto {
  @ApiProperty({ description: 'The click-out the purchase came from (from `GET .../clicks`).' })
  @IsNotEmpty({ message: CLAIM_MESSAGES.clickId })
  @IsString({ message: CLAIM_MESSAGES.clickId })
  @MaxLength(64, { message: CLAIM_MESSAGES.clickId })
  clickId: string;

  @ApiProperty({ example: 'OD-4471-22981' })
  @Trim()
  @IsNotEmpty({ message: CLAIM_MESSAGES.orderId.required })
  @IsString({ message: CLAIM_MESSAGES.orderId.invalid })
  @Matches(CLAIM_RULES.orderId, { message: CLAIM_MESSAGES.orderId.invalid })
  orderId: string;

  @ApiProperty({ example: '2026-03-14', description: 'The day of the order (India).' })
  @Trim()
  @IsNotEmpty({ message: CLAIM_MESSAGES.orderDate.required })
  @IsString({ message: CLAIM_MESSAGES.orderDate.invalid })
  @Matches(CLAIM_RULES.orderDate, { message: CLAIM_MESSAGES.orderDate.invalid })
  orderDate: string;

  @ApiProperty({ example: '1299.50', description: 'Rupees with up to 2 decimals.' })
  @Transform(decimalText)
  @IsNotEmpty({ message: CLAIM_MESSAGES.amount.required })
  @IsString({ message: CLAIM_MESSAGES.amount.invalid })
  @Matches(CLAIM_RULES.amount, { message: CLAIM_MESSAGES.amount.invalid })
  amount: string;
}

export class RejectClaimDto {
  @ApiProperty({ example: 'The store says this order was returned.' })
  @Trim()
  @IsNotEmpty({ message: CLAIM_MESSAGES.reason.required })
  @IsString({ message: CLAIM_MESSAGES.reason.required })
  @MaxLength(CLAIM_RULES.reasonMaxLength, { message: CLAIM_MESSAGES.reason.tooLong })
  reason: string;
}

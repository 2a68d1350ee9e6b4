import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { IsOptional, Trim, WholeNumber } from '../../infrastructure/http/field-decorators.js';
import {
  normaliseAccountNumber,
  normaliseIfsc,
  normaliseUpiId,
  PAYOUT,
  PAYOUT_RULES,
} from '../../rules/payouts.js';

/** A JSON number (1299.5) is read as the decimal it was written as; text is trimmed. */
const decimalText = ({ value }: { value: unknown }) =>
  typeof value === 'number' && Number.isFinite(value)
    ? String(value)
    : typeof value === 'string'
      ? value.trim()
      : value;

const normalised =
  (normalise: (text: string) => string) =>
  ({ value }: { value: unknown }) =>
    typeof value === 'string' ? normalise(value) : value;

/** The bank account's fields: given together, or both left out for a UPI payout. */
const bankAccountGiven = (dto: RequestPayoutDto) => dto.accountNumber !== undefined || dto.ifsc !== undefined;

/** A UPI ID and a bank account in one request: which one was meant is not ours to guess. */
function NotWithBankAccount() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'notWithBankAccount',
      target: target.constructor,
      propertyName,
      options: { message: PAYOUT.destination.both },
      validator: {
        validate: (_value: unknown, args: ValidationArguments) =>
          !bankAccountGiven(args.object as RequestPayoutDto),
      },
    });
}

/** A shopper's request to withdraw confirmed cashback: to a UPI ID, or to a bank account. */
export class RequestPayoutDto {
  @ApiProperty({ example: '500.00', description: 'Rupees with up to 2 decimals.' })
  @Transform(decimalText)
  @IsNotEmpty({ message: PAYOUT.amount.required })
  @IsString({ message: PAYOUT.amount.invalid })
  @Matches(PAYOUT_RULES.amount, { message: PAYOUT.amount.invalid })
  amount: string;

  @ApiPropertyOptional({
    example: 'asha.rao@okhdfcbank',
    description: 'Leave out when paying to a bank account.',
  })
  // Checked when given, and when no bank account is given either: then the destination is missing.
  @ValidateIf((dto: RequestPayoutDto) => dto.upiId !== undefined || !bankAccountGiven(dto))
  @Transform(normalised(normaliseUpiId))
  @IsNotEmpty({
    message: (args: ValidationArguments) =>
      args.value === undefined ? PAYOUT.destination.required : PAYOUT.upiId.required,
  })
  @IsString({ message: PAYOUT.upiId.invalid })
  @MaxLength(PAYOUT_RULES.upiIdMaxLength, { message: PAYOUT.upiId.invalid })
  @Matches(PAYOUT_RULES.upiId, { message: PAYOUT.upiId.invalid })
  @NotWithBankAccount()
  upiId?: string;

  @ApiPropertyOptional({ example: '50100123456789', description: '9 to 18 digits; spaces are ignored.' })
  @ValidateIf(bankAccountGiven)
  @Transform(normalised(normaliseAccountNumber))
  @IsNotEmpty({ message: PAYOUT.accountNumber.required })
  @IsString({ message: PAYOUT.accountNumber.invalid })
  @Matches(PAYOUT_RULES.accountNumber, { message: PAYOUT.accountNumber.invalid })
  accountNumber?: string;

  @ApiPropertyOptional({ example: 'HDFC0001234', description: 'Any case; kept in upper case.' })
  @ValidateIf(bankAccountGiven)
  @Transform(normalised(normaliseIfsc))
  @IsNotEmpty({ message: PAYOUT.ifsc.required })
  @IsString({ message: PAYOUT.ifsc.invalid })
  @Matches(PAYOUT_RULES.ifsc, { message: PAYOUT.ifsc.invalid })
  ifsc?: string;

  @ApiPropertyOptional({ example: 'Asha Rao' })
  @IsOptional()
  @Trim()
  @IsString({ message: PAYOUT.accountHolderName.invalid })
  @MaxLength(PAYOUT_RULES.accountHolderNameMaxLength, { message: PAYOUT.accountHolderName.invalid })
  accountHolderName?: string;
}

/** The transfer that paid a payout. */
export class PayPayoutDto {
  @ApiProperty({ example: 'HDFCN52026112512345', description: 'The bank’s reference (UTR) of the transfer.' })
  @Trim()
  @IsNotEmpty({ message: PAYOUT.bankReference.required })
  @IsString({ message: PAYOUT.bankReference.invalid })
  @Matches(PAYOUT_RULES.bankReference, { message: PAYOUT.bankReference.invalid })
  bankReference: string;
}

export class FailPayoutDto {
  @ApiProperty({ example: 'The bank refused the transfer: account closed.' })
  @Trim()
  @IsNotEmpty({ message: PAYOUT.reason.required })
  @IsString({ message: PAYOUT.reason.required })
  @MaxLength(PAYOUT_RULES.reasonMaxLength, { message: PAYOUT.reason.tooLong })
  reason: string;
}

export class PaidPayoutDto extends PayPayoutDto {
  @ApiProperty({ example: 12 })
  @WholeNumber(PAYOUT.bulk.invalid, PAYOUT.bulk.invalid, 1, 2_147_483_647)
  id: number;
}

/** Payouts paid in one run, each with the reference of its own transfer. */
export class PayPayoutsDto {
  @ApiProperty({ type: [PaidPayoutDto] })
  @IsArray({ message: PAYOUT.bulk.invalid })
  @ArrayMinSize(1, { message: PAYOUT.bulk.invalid })
  @ArrayMaxSize(PAYOUT_RULES.bulkMax, { message: PAYOUT.bulk.invalid })
  @ValidateNested()
  @Type(() => PaidPayoutDto)
  payouts: PaidPayoutDto[];
}

export class PayoutsPageQuery {
  @IsOptional()
  @Matches(/^\d{1,6}$/, { message: 'The page is a whole number from 1.' })
  page?: string;

  @IsOptional()
  @Matches(/^\d{1,3}$/, { message: 'Per page is a whole number from 1 to 100.' })
  perPage?: string;
}

import { BadRequestException, Body, Controller, Get, Param, type PipeTransform, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CurrentAccount } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Flag } from '../infrastructure/http/field-decorators.js';
import { CONSENT_PURPOSES, CONSENTS, type ConsentPurpose, PRIVACY_NOTICE_VERSION } from '../rules/privacy.js';
import { ChangeConsent } from './commands/consents.js';
import { currentConsents } from './queries/consents.js';

class ConsentChoiceDto {
  @ApiProperty({ example: false, description: 'true gives the consent, false withdraws it.' })
  @Flag(CONSENTS.given)
  given: boolean;
}

/** The purpose in the address: one of the rules' purposes, else 400 with the spec's message shape. */
class PurposePipe implements PipeTransform<string, ConsentPurpose> {
  transform(value: string): ConsentPurpose {
    if ((CONSENT_PURPOSES as readonly string[]).includes(value)) return value as ConsentPurpose;
    throw new BadRequestException({
      statusCode: 400,
      message: CONSENTS.purpose,
      errors: { purpose: [CONSENTS.purpose] },
    });
  }
}

/** A signed-in shopper's consents ("Your consents"): each purpose's state, and one click to change it. */
@ApiTags('me')
@Controller('me/consents')
export class UserConsentsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@CurrentAccount() account: SignedInAccount) {
    return {
      noticeVersion: PRIVACY_NOTICE_VERSION,
      consents: await currentConsents(this.dataSource, { kind: 'shopper', id: account.id }),
    };
  }

  @Put(':purpose')
  async change(
    @CurrentAccount() account: SignedInAccount,
    @Param('purpose', PurposePipe) purpose: ConsentPurpose,
    @Body() { given }: ConsentChoiceDto,
  ) {
    const consents = await this.commands.execute(
      new ChangeConsent({ kind: 'shopper', id: account.id }, purpose, given),
    );
    return {
      noticeVersion: PRIVACY_NOTICE_VERSION,
      consents,
      message: given ? CONSENTS.recordedGiven : CONSENTS.recordedWithdrawn,
    };
  }
}

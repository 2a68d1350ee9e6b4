import { Body, Controller, Get, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsBoolean, IsOptional } from 'class-validator';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { CurrentAccount, CurrentMerchantId, Public } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { linkLanguage } from '../infrastructure/http/languages.js';
import { TakesFormBody } from '../infrastructure/http/request-guards.js';
import { sendNoticePage } from '../infrastructure/http/unsubscribe-link.js';
import { ACCOUNT_DELETION } from '../rules/privacy.js';
import {
  CancelAccountDeletion,
  FollowDeletionLink,
  type PersonKind,
  RequestAccountDeletion,
} from './commands/deletion.js';
import { isDeletionTokenShaped } from './deletion-links.js';
import { deletionLinkOutcome, deletionLinkQuestion } from './deletion-pages.js';
import { openDeletionRequest } from './queries/deletion-requests.js';

export class AccountDeletionDto {
  /** The person gives up confirmed cashback not yet paid out, explicitly; recorded with the request. */
  @IsOptional()
  @IsBoolean({ message: ACCOUNT_DELETION.giveUpUnpaidMoney.invalid })
  giveUpUnpaidMoney?: boolean;
}

/** Where the account's deletion stands, for the account area: nothing open, asked, or scheduled. */
export interface AccountDeletionStatus {
  state: 'none' | 'awaiting_confirmation' | 'scheduled';
  confirmBefore?: string;
  eraseAfter?: string;
}

async function statusOf(
  dataSource: DataSource,
  kind: PersonKind,
  id: number,
): Promise<AccountDeletionStatus> {
  const open = await openDeletionRequest(dataSource, kind, id);
  if (!open || (open.state === 'awaiting_confirmation' && open.confirmBefore <= new Date()))
    return { state: 'none' };
  return open.state === 'scheduled'
    ? { state: 'scheduled', eraseAfter: open.eraseAfter?.toISOString() }
    : { state: 'awaiting_confirmation', confirmBefore: open.confirmBefore.toISOString() };
}

/** The shopper's deletion of their account, in the account area. */
@ApiTags('me')
@Controller('me/account-deletion')
export class ShopperAccountDeletionController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  status(@CurrentAccount() account: SignedInAccount) {
    return statusOf(this.dataSource, 'shopper', account.id);
  }

  @Post()
  @HttpCode(202)
  async request(@CurrentAccount() account: SignedInAccount, @Body() body: AccountDeletionDto) {
    await this.commands.execute(
      new RequestAccountDeletion('shopper', account.id, body.giveUpUnpaidMoney === true),
    );
    return { message: ACCOUNT_DELETION.requested, ...(await this.status(account)) };
  }

  @Post('cancel')
  @HttpCode(200)
  async cancel(@CurrentAccount() account: SignedInAccount) {
    await this.commands.execute(new CancelAccountDeletion('shopper', account.id));
    return { message: ACCOUNT_DELETION.cancelled, state: 'none' };
  }
}

/** The merchant's deletion of its account, from the back-office profile. */
@ApiTags('merchant')
@Controller('merchant/account-deletion')
export class MerchantAccountDeletionController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  status(@CurrentMerchantId() merchantId: number) {
    return statusOf(this.dataSource, 'merchant', merchantId);
  }

  @Post()
  @HttpCode(202)
  async request(@CurrentMerchantId() merchantId: number) {
    await this.commands.execute(new RequestAccountDeletion('merchant', merchantId, false));
    return { message: ACCOUNT_DELETION.requested, ...(await this.status(merchantId)) };
  }

  @Post('cancel')
  @HttpCode(200)
  async cancel(@CurrentMerchantId() merchantId: number) {
    await this.commands.execute(new CancelAccountDeletion('merchant', merchantId));
    return { message: ACCOUNT_DELETION.cancelled, state: 'none' };
  }
}

/**
 * The mailed links: a GET shows a question with a button (mail scanners follow links), the button
 * posts to the same address, which confirms or cancels and shows the outcome.
 */
@ApiTags('privacy')
@Controller('account-deletion')
export class DeletionLinksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly environment: Environment,
  ) {}

  @Public()
  @Get(['confirm', 'cancel'])
  ask(
    @Query('token') token: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const language = linkLanguage(lang, acceptLanguage);
    const purpose = reply.request.url.includes('/account-deletion/cancel') ? 'cancel' : 'confirm';
    const publicUrl = this.environment.PUBLIC_URL;
    return isDeletionTokenShaped(token)
      ? sendNoticePage(reply, true, deletionLinkQuestion(purpose, language, publicUrl))
      : sendNoticePage(reply, false, deletionLinkOutcome('invalid', language, publicUrl));
  }

  @Public()
  @Post('confirm')
  @TakesFormBody()
  @HttpCode(200)
  confirm(
    @Query('token') token: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.follow('confirm', token, linkLanguage(lang, acceptLanguage), reply);
  }

  @Public()
  @Post('cancel')
  @TakesFormBody()
  @HttpCode(200)
  cancel(
    @Query('token') token: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.follow('cancel', token, linkLanguage(lang, acceptLanguage), reply);
  }

  private async follow(
    purpose: 'confirm' | 'cancel',
    token: unknown,
    language: ReturnType<typeof linkLanguage>,
    reply: FastifyReply,
  ) {
    const { outcome, eraseAfter } = await this.commands.execute(new FollowDeletionLink(purpose, token));
    const page = sendNoticePage(
      reply,
      outcome !== 'invalid',
      deletionLinkOutcome(outcome, language, this.environment.PUBLIC_URL, eraseAfter),
    );
    // A link that is not one answers 400, one that cannot be followed yet 409; both change nothing.
    if (outcome === 'refused') reply.status(409);
    return page;
  }
}

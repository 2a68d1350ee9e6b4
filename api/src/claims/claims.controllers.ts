import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  PayloadTooLargeException,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { type AccountRequest, CurrentAccount, Public } from '../identity/sessions/access.js';
import type { SignedInAccount } from '../identity/sessions/session.service.js';
import { Environment } from '../infrastructure/config/environment.js';
import { readForm, validateForm } from '../infrastructure/http/forms.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { filterId, filterText, listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import { privateImage } from '../media/private-media.js';
import {
  type AdminClaim,
  CLAIM_KINDS,
  CLAIM_MESSAGES,
  CLAIM_RULES,
  CLAIM_STATES,
  type ClaimableClick,
  type ShopperClaim,
} from '../rules/claims.js';
import { ApproveClaim, FileClaim, RejectClaim } from './commands/claims.js';
import { FileClaimDto, RejectClaimDto } from './dto/claims.dto.js';
import { adminClaims, claimAnswerSettings, claimableClicks, shopperClaimAnswers } from './queries/answers.js';
import { CLAIM_SORTS, claimById, claimsPage } from './queries/claims.js';

/** A shopper's missing-cashback claims: the click-outs they may claim, filing one, their answers. */
@ApiTags('me')
@Controller('me/missing-cashback-claims')
export class ShopperClaimsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  /** The shopper's claims and held purchases, newest first, each with its answer or the date it is due. */
  @Get()
  async list(@CurrentAccount() account: SignedInAccount): Promise<ShopperClaim[]> {
    return shopperClaimAnswers(this.dataSource, account.id, claimAnswerSettings(this.environment));
  }

  /** Click-outs claimable now: a day old or more, within their store's window, nothing tracked or claimed. */
  @Get('clicks')
  clicks(@CurrentAccount() account: SignedInAccount): Promise<ClaimableClick[]> {
    return claimableClicks(this.dataSource, account.id);
  }

  /**
   * Files a claim: `clickId`, `orderId`, `orderDate`, `amount` and an optional `invoice` image
   * (multipart; or JSON without one). 201 with the claim.
   */
  @Post()
  @ApiConsumes('multipart/form-data', 'application/json')
  async file(
    @CurrentAccount() account: SignedInAccount,
    @Req() request: AccountRequest,
  ): Promise<ShopperClaim> {
    const limit = CLAIM_RULES.invoiceMaxMegabytes * 1024 * 1024;
    const { fields, files } = await readForm(request, ['invoice'], limit + 1).catch((error: unknown) => {
      if (error instanceof PayloadTooLargeException) {
        throw new PayloadTooLargeException({
          statusCode: 413,
          message: CLAIM_MESSAGES.invoiceTooLarge,
          errors: { invoice: [CLAIM_MESSAGES.invoiceTooLarge] },
        });
      }
      throw error;
    });
    const form = await validateForm(FileClaimDto, fields);
    const { id } = await this.commands.execute(new FileClaim(account.id, form, files.invoice, request.ip));
    const claims = await this.list(account);
    return claims.find((claim) => claim.id === id)!;
  }
}

const CLAIM_LIST = reactAdminList('missing-cashback-claims', CLAIM_SORTS, 'filedAt', 'DESC');

/** The admins' queue of claims and held purchases (react-admin REST; filters `state`, `kind`, `userId`, `storeId`). */
@ApiTags('admin')
@Controller('admin/missing-cashback-claims')
export class AdminClaimsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  @Get()
  async list(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminClaim[]> {
    const rows = await listAnswer(query, reply, CLAIM_LIST, (page) =>
      claimsPage(this.dataSource, page, {
        state: filterText(page.filter, 'state', { allowed: CLAIM_STATES }) ?? null,
        kind: filterText(page.filter, 'kind', { allowed: CLAIM_KINDS }) ?? null,
        userId: filterId(page.filter, 'userId') ?? null,
        storeId: filterId(page.filter, 'storeId') ?? null,
      }),
    );
    return adminClaims(this.dataSource, rows, claimAnswerSettings(this.environment));
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number): Promise<AdminClaim> {
    const row = await claimById(this.dataSource, id);
    if (!row) throw new NotFoundException({ statusCode: 404, message: CLAIM_MESSAGES.notFound });
    return (await adminClaims(this.dataSource, [row], claimAnswerSettings(this.environment)))[0]!;
  }

  /** A claim becomes pending cashback at the rate live at its click; a held purchase is credited. */
  @Post(':id/approve')
  @HttpCode(200)
  async approve(@Param('id', IdPipe) id: number, @CurrentAccount() admin: SignedInAccount) {
    await this.commands.execute(new ApproveClaim(id, admin.id));
    return this.one(id);
  }

  /** Rejected with a `reason` the shopper reads; a held purchase is cancelled. */
  @Post(':id/reject')
  @HttpCode(200)
  async reject(
    @Param('id', IdPipe) id: number,
    @Body() body: RejectClaimDto,
    @CurrentAccount() admin: SignedInAccount,
  ) {
    await this.commands.execute(new RejectClaim(id, admin.id, body.reason));
    return this.one(id);
  }
}

/**
 * A claim's invoice, for the shopper who filed it and for admins; anyone else (another shopper,
 * a merchant, a visitor) is told there is none, so an id says nothing about whether it exists.
 * Private: never stored by a browser or a proxy, nor put in the site's image cache.
 */
@ApiTags('claims')
@Public()
@Controller('claim-invoices')
export class ClaimInvoicesController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get(':claimId')
  async invoice(
    @Param('claimId') claimIdText: string,
    @Req() request: AccountRequest,
    @Res() reply: FastifyReply,
  ) {
    reply.header('cache-control', 'private, no-store');
    const notFound = new NotFoundException({ statusCode: 404, message: CLAIM_MESSAGES.invoiceNotFound });
    const claimId = /^\d{1,9}$/.test(claimIdText) ? Number(claimIdText) : null;
    const account = request.account;
    if (claimId === null || !account || (account.role !== 'admin' && account.role !== 'user')) throw notFound;
    const claim = await claimById(this.dataSource, claimId);
    if (!claim?.invoiceId || (account.role === 'user' && claim.userId !== account.id)) throw notFound;
    const image = await privateImage(this.dataSource, claim.invoiceId);
    if (!image) throw notFound;
    return reply
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .type(image.contentType)
      .send(image.bytes);
  }
}

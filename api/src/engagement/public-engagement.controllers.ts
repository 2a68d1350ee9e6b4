import {
  BadRequestException,
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { isEmail } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../identity/sessions/access.js';
import { Environment } from '../infrastructure/config/environment.js';
import { preferredLanguage } from '../infrastructure/http/languages.js';
import { TakesFormBody } from '../infrastructure/http/request-guards.js';
import { sendNoticePage, unsubscribeQuestion } from '../infrastructure/http/unsubscribe-link.js';
import { CONTACT_FORM, EMAIL_MAX_LENGTH, NEWSLETTER } from '../rules/engagement.js';
import { SubmitContactMessage } from './commands/contact.js';
import { FollowNewsletterLink, SubscribeToNewsletter } from './commands/newsletter.js';
import { ContactMessageDto, NewsletterSubscriptionDto } from './dto/engagement.dto.js';
import { FormThrottle } from './form-throttle.js';
import { newsletterPage, newsletterUnsubscribeAsk } from './newsletter-pages.js';
import { tokenSubscriberId } from './newsletter-tokens.js';

@ApiTags('newsletter')
@Controller('newsletter')
export class NewsletterController {
  constructor(
    private readonly commands: CommandBus,
    private readonly environment: Environment,
    private readonly throttle: FormThrottle,
  ) {}

  /** Always 202 with the same answer, so the form does not reveal who is subscribed. */
  @Public()
  @Post()
  @HttpCode(202)
  async subscribe(
    @Body() body: NewsletterSubscriptionDto,
    @Req() request: FastifyRequest,
    @Headers('accept-language') acceptLanguage?: string,
  ) {
    const email = body.email || body.EmailAddress || '';
    const problem = !email
      ? NEWSLETTER.email.required
      : email.length > EMAIL_MAX_LENGTH || !isEmail(email)
        ? NEWSLETTER.email.invalid
        : undefined;
    if (problem)
      throw new BadRequestException({ statusCode: 400, message: problem, errors: { email: [problem] } });
    await this.throttle.count('newsletter', request.ip);
    await this.commands.execute(
      new SubscribeToNewsletter(email, body.language ?? preferredLanguage(acceptLanguage)),
    );
    return { result: true, message: NEWSLETTER.accepted };
  }

  @Public()
  @Get('confirm')
  confirm(@Query('token') token: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.follow('confirm', token, reply);
  }

  /** The link a reader follows: a page that asks (see `unsubscribeQuestion`). */
  @Public()
  @Get('unsubscribe')
  unsubscribe(
    @Query('token') token: unknown,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const publicUrl = this.environment.PUBLIC_URL;
    return unsubscribeQuestion(
      reply,
      { token, lang, acceptLanguage },
      {
        isShaped: (shaped) => tokenSubscriberId(shaped) !== undefined,
        ask: (language) => newsletterUnsubscribeAsk(language, publicUrl),
        invalid: (language) => newsletterPage('invalid', language, publicUrl),
      },
    );
  }

  /**
   * One-click unsubscription (RFC 8058): mail clients POST `List-Unsubscribe=One-Click` to the
   * `List-Unsubscribe` address, and the page of the link above posts the same. Acts, idempotently.
   */
  @Public()
  @Post('unsubscribe')
  @TakesFormBody()
  @HttpCode(200)
  unsubscribeInOneClick(@Query('token') token: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.follow('unsubscribe', token, reply);
  }

  private async follow(action: 'confirm' | 'unsubscribe', token: unknown, reply: FastifyReply) {
    const { outcome, language } = await this.commands.execute(new FollowNewsletterLink(action, token));
    return sendNoticePage(
      reply,
      outcome !== 'invalid',
      newsletterPage(outcome, language, this.environment.PUBLIC_URL),
    );
  }
}

@ApiTags('contact')
@Controller('contact')
export class ContactController {
  constructor(
    private readonly commands: CommandBus,
    private readonly throttle: FormThrottle,
  ) {}

  @Public()
  @Post()
  async submit(@Body() form: ContactMessageDto, @Req() request: FastifyRequest) {
    await this.throttle.count('contact', request.ip);
    const { id } = await this.commands.execute(new SubmitContactMessage(form));
    return { id, message: CONTACT_FORM.submitted };
  }
}

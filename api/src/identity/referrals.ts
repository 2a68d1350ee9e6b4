import { BadRequestException } from '@nestjs/common';
import { normaliseMobile, USER_REGISTRATION, WHATSAPP_COUNTRY_CODE } from '../rules/accounts.js';
import type { ReferralInvitation } from './queries/answers.js';

export type { ReferralInvitation } from './queries/answers.js';

/** `publicUrl` is the `PUBLIC_URL` setting: the address shoppers reach the site at. */
export function referralInvitation(
  publicUrl: string,
  code: string,
  friendMobile?: string,
): ReferralInvitation {
  const mobile = friendMobile === undefined ? undefined : normaliseMobile(friendMobile);
  if (friendMobile !== undefined && !mobile) {
    throw new BadRequestException({
      statusCode: 400,
      message: USER_REGISTRATION.mobileNumber.invalid,
      errors: { mobile: [USER_REGISTRATION.mobileNumber.invalid] },
    });
  }
  const link = `${publicUrl}/register?ref=${encodeURIComponent(code)}`;
  const message = `Join me on Offers Marketplace for coupons and cashback at your favourite shops: ${link}`;
  const chat = mobile ? `${WHATSAPP_COUNTRY_CODE}${mobile}` : '';
  return { code, link, message, whatsappUrl: `https://wa.me/${chat}?text=${encodeURIComponent(message)}` };
}

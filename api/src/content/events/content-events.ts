import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/** Notified (at commit) by the home-content projection whenever the home page's document changes. */
export const HOME_CONTENT_CHANNEL = 'home_content_changed';

/** The kinds of home-page content; each names its aggregate and its events. */
export const CONTENT_KINDS = [
  'HeroImage',
  'Banner',
  'SeasonalOffer',
  'FlashText',
  'BestOfferBanner',
] as const;
export type ContentKindName = (typeof CONTENT_KINDS)[number];

/** Content was added or changed, e.g. `HeroImageSaved`. */
export class ContentSaved extends DomainEvent<{ kind: ContentKindName }> {
  readonly type: string;
  readonly aggregateType: string;

  constructor(kind: ContentKindName, id: number) {
    super(String(id), { kind });
    this.type = `${kind}Saved`;
    this.aggregateType = kind;
  }
}

/** Content was taken off the site, e.g. `BannerRemoved`. */
export class ContentRemoved extends DomainEvent<{ kind: ContentKindName }> {
  readonly type: string;
  readonly aggregateType: string;

  constructor(kind: ContentKindName, id: number) {
    super(String(id), { kind });
    this.type = `${kind}Removed`;
    this.aggregateType = kind;
  }
}

/** Every event that changes what the home page shows apart from its coupons. */
export const CONTENT_EVENTS = CONTENT_KINDS.flatMap((kind) => [`${kind}Saved`, `${kind}Removed`]);

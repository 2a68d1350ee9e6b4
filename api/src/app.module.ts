import { type DynamicModule, Module } from '@nestjs/common';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { CashbackModule } from './cashback/cashback.module.js';
import { ClaimsModule } from './claims/claims.module.js';
import { ClicksModule } from './clicks/clicks.module.js';
import { ContentModule } from './content/content.module.js';
import { CouponsModule } from './coupons/coupons.module.js';
import { EarningsModule } from './earnings/earnings.module.js';
import { EngagementModule } from './engagement/engagement.module.js';
import { featureEntities } from './entities.js';
import { FeedsModule } from './feeds/feeds.module.js';
import { FollowsModule } from './follows/follows.module.js';
import { IdentityModule } from './identity/identity.module.js';
import type { Environment } from './infrastructure/config/environment.js';
import { HealthModule } from './infrastructure/health/health.module.js';
import { IdempotencyModule } from './infrastructure/idempotency/idempotency.module.js';
import { PlatformModule, type PlatformOptions } from './infrastructure/platform/platform.module.js';
import { configureImageLimit } from './media/images.js';
import { MediaModule } from './media/media.module.js';
import { configureMediaStore } from './media/object-store.js';
import { PayoutsModule } from './payouts/payouts.module.js';
import { PrivacyModule } from './privacy/privacy.module.js';
import { SearchModule } from './search/search.module.js';
import { StorefrontModule } from './storefront/storefront.module.js';

/** The HTTP API: the platform plus one module per feature. */
@Module({})
export class AppModule {
  static forRoot(environment: Environment, options: PlatformOptions = {}): DynamicModule {
    configureImageLimit(environment.MEDIA_MAX_MB);
    configureMediaStore(environment);
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(environment, { ...options, entities: featureEntities }),
        IdentityModule,
        IdempotencyModule,
        CouponsModule,
        MediaModule,
        ContentModule,
        StorefrontModule,
        HealthModule,
        EngagementModule,
        EarningsModule,
        CashbackModule,
        PayoutsModule,
        SearchModule,
        FollowsModule,
        AnalyticsModule,
        ClicksModule,
        FeedsModule,
        ClaimsModule,
        PrivacyModule,
      ],
    };
  }
}

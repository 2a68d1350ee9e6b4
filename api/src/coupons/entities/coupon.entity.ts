import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type CouponStatus = 'pending' | 'live' | 'rejected' | 'expired' | 'withdrawn';

@Entity('coupons')
export class Coupon {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('int', { name: 'merchant_id' })
  merchantId: number;

  @Column('text', { name: 'coupon_name' })
  couponName: string;

  /** None for a deal: the offer applies through the store's link alone. */
  @Column('text', { name: 'coupon_code', nullable: true })
  couponCode: string | null;

  @Column('text')
  title: string;

  @Column('text')
  description: string;

  @Column('text', { name: 'terms_and_conditions' })
  termsAndConditions: string;

  @Column('int', { nullable: true })
  percentage: number | null;

  @Column('int', { name: 'discount_value', nullable: true })
  discountValue: number | null;

  /** None for an open-ended coupon: live until it is ended otherwise. */
  @Column('timestamptz', { name: 'expiry_date', nullable: true })
  expiryDate: Date | null;

  /** Offered on this site only (a network marks it so): cards carry an "Exclusive" badge. */
  @Column('boolean', { default: false })
  exclusive: boolean;

  @Column('int', { name: 'requested_slot_id' })
  requestedSlotId: number;

  @Column('int', { name: 'slot_id', nullable: true })
  slotId: number | null;

  @Column('text', { name: 'merchant_url', nullable: true })
  merchantUrl: string | null;

  @Column('uuid', { name: 'ad_image_id', nullable: true })
  adImageId: string | null;

  @Column('text', { default: 'pending' })
  status: CouponStatus;

  @Column('text', { name: 'rejection_reason', nullable: true })
  rejectionReason: string | null;

  @Column('timestamptz', { name: 'submitted_at', default: () => 'now()' })
  submittedAt: Date;

  @Column('timestamptz', { name: 'approved_at', nullable: true })
  approvedAt: Date | null;

  @Column('timestamptz', { name: 'ended_at', nullable: true })
  endedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

@Entity('slots')
export class Slot {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('text')
  name: string;

  @Column('text')
  kind: 'free' | 'paid';

  /** Rupees are kept as whole paise, never as floating point. */
  @Column('bigint', {
    name: 'price_paise',
    nullable: true,
    transformer: {
      to: (value) => value,
      from: (value: string | null) => (value === null ? null : Number(value)),
    },
  })
  pricePaise: number | null;

  @Column('int')
  capacity: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}

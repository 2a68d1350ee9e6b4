import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('merchants')
export class Merchant {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('text', { name: 'merchant_name' })
  merchantName: string;

  @Column('text', { name: 'brand_name' })
  brandName: string;

  @Column('text')
  industry: string;

  @Column('text')
  category: string;

  @Column('text')
  address: string;

  /** Null for a store without an account (see FeedAdvertisers1764930000000), as are mobile, user name and password. */
  @Column('text', { nullable: true })
  email: string | null;

  @Column('text', { nullable: true })
  mobile: string | null;

  @Column('text', { name: 'merchant_url' })
  merchantUrl: string;

  @Column('text', { name: 'user_name', nullable: true })
  userName: string | null;

  @Column('text', { name: 'password_hash', select: false, nullable: true })
  passwordHash: string | null;

  @Column('text', { name: 'referral_code', nullable: true })
  referralCode: string | null;

  @Column('text', { name: 'referred_by_code' })
  referredByCode: string;

  @Column('text', { name: 'referred_by_type' })
  referredByType: string;

  @Column('boolean', { name: 'is_email_confirmed' })
  isEmailConfirmed: boolean;

  @Column('timestamptz', { name: 'email_confirmation_expires_at', nullable: true })
  emailConfirmationExpiresAt: Date | null;

  /** An admin hid the merchant's store page and coupons from the public site. */
  @Column('boolean', { name: 'store_hidden', default: false })
  storeHidden: boolean;

  /** Language of the mails sent to this account: en, hi or te. */
  @Column('text', { default: 'en' })
  language: string;

  @CreateDateColumn({ name: 'registered_on', type: 'timestamptz' })
  registeredOn: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

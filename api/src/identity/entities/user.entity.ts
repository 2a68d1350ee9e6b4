import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('text', { name: 'user_name' })
  userName: string;

  @Column('text')
  email: string;

  @Column('text', { name: 'mobile_number' })
  mobileNumber: string;

  @Column('text', { name: 'password_hash', select: false })
  passwordHash: string;

  @Column('text', { name: 'referral_code' })
  referralCode: string;

  @Column('text', { name: 'referred_by' })
  referredBy: string;

  @Column('text')
  address: string;

  /** Language of the mails sent to this account: en, hi or te. */
  @Column('text', { default: 'en' })
  language: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

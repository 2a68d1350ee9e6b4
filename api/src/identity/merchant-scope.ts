import { NotFoundException } from '@nestjs/common';
import type { DeepPartial, FindManyOptions, FindOptionsWhere, Repository } from 'typeorm';

export interface MerchantOwned {
  id: number | string;
  merchantId: number;
}

export const NOT_FOUND_MESSAGE = 'Not found.';

/**
 * One merchant's slice of a table. Every read and write goes through the session's merchant id:
 * a record of another merchant reads as missing (404, so its existence does not leak), and a
 * merchant id in the caller's values is overwritten. Merchant modules reach their records only
 * through this.
 */
export class MerchantScope<T extends MerchantOwned> {
  constructor(
    private readonly repository: Repository<T>,
    readonly merchantId: number,
  ) {}

  private where(extra: FindOptionsWhere<T> = {}): FindOptionsWhere<T> {
    return { ...extra, merchantId: this.merchantId } as FindOptionsWhere<T>;
  }

  /** The conditions (any one matching), each limited to this merchant's records. */
  owned(alternatives: FindOptionsWhere<T>[]): FindOptionsWhere<T>[] {
    return alternatives.map((clause) => this.where(clause));
  }

  list(options: FindManyOptions<T> = {}): Promise<[T[], number]> {
    const where = Array.isArray(options.where) ? this.owned(options.where) : this.where(options.where);
    return this.repository.findAndCount({ ...options, where });
  }

  async get(id: T['id']): Promise<T> {
    const found = await this.repository.findOne({ where: this.where({ id } as FindOptionsWhere<T>) });
    if (!found) throw new NotFoundException({ statusCode: 404, message: NOT_FOUND_MESSAGE });
    return found;
  }

  create(values: DeepPartial<T>): Promise<T> {
    return this.repository.save(
      this.repository.create({ ...values, merchantId: this.merchantId } as DeepPartial<T>),
    );
  }

  async update(id: T['id'], changes: DeepPartial<T>): Promise<T> {
    const record = await this.get(id);
    return this.repository.save(
      this.repository.merge(record, {
        ...changes,
        id: record.id,
        merchantId: this.merchantId,
      } as DeepPartial<T>),
    );
  }

  async remove(id: T['id']): Promise<void> {
    const { affected } = await this.repository.delete(this.where({ id } as FindOptionsWhere<T>));
    if (!affected) throw new NotFoundException({ statusCode: 404, message: NOT_FOUND_MESSAGE });
  }
}

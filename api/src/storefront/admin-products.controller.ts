import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { entityOrder, listAnswer } from '../infrastructure/http/react-admin.js';
import { PRODUCT_FORM, PRODUCT_REVIEW } from '../rules/storefront.js';
import { ApproveProduct, RejectProduct } from './commands/review.js';
import { RejectProductDto } from './dto/storefront.dto.js';
import { Product } from './entities/storefront.entities.js';
import { productFilter } from './merchant-storefront.controllers.js';
import { productRecords, productRecordsPage } from './queries/storefront-records.js';

/** The product review queue: every merchant's products, oldest submission first, in fives. */
@ApiTags('admin')
@Controller('admin/products')
export class AdminProductsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = {
      resource: 'products',
      sortable: ['id', 'submittedAt', 'reviewedAt', 'status', 'productName', 'merchantId'],
      defaults: { sortField: 'submittedAt', order: 'ASC', perPage: PRODUCT_REVIEW.perPage },
    } as const;
    return listAnswer(query, reply, list, async (page) => {
      const found = await this.dataSource.getRepository(Product).findAndCount({
        where: productFilter(page.filter),
        order: entityOrder(page),
        skip: page.offset,
        take: page.limit,
      });
      return productRecordsPage(this.dataSource.manager, found);
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [record] = await productRecords(this.dataSource.manager, [id]);
    if (!record) throw new NotFoundException({ statusCode: 404, message: PRODUCT_FORM.notFound });
    return record;
  }

  @Post(':id/approve')
  @HttpCode(200)
  async approve(@Param('id', IdPipe) id: number) {
    await this.commands.execute(new ApproveProduct(id));
    return this.one(id);
  }

  /** Reason and advised changes default to the older client's 'not clear text' and 'no'. */
  @Post(':id/reject')
  @HttpCode(200)
  async reject(@Param('id', IdPipe) id: number, @Body() body: RejectProductDto) {
    await this.commands.execute(
      new RejectProduct(
        id,
        body?.reason || PRODUCT_REVIEW.defaultReason,
        body?.advisedChanges || PRODUCT_REVIEW.defaultAdvisedChanges,
      ),
    );
    return { ...(await this.one(id)), message: PRODUCT_REVIEW.rejected(id) };
  }
}

import { Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type DataSource, type FindOptionsWhere, ILike, In } from 'typeorm';
import { MerchantScope } from '../identity/merchant-scope.js';
import { CurrentMerchantId } from '../identity/sessions/access.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { entityOrder, listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import { validateWithImage } from '../media/image-forms.js';
import { CATEGORY_FORM, PRODUCT_FORM, PRODUCT_STATUSES, STORE_IMAGE_FIELDS } from '../rules/storefront.js';
import {
  CreateMerchantCategory,
  DeleteMerchantCategory,
  UpdateMerchantCategory,
} from './commands/categories.js';
import { DeleteProduct, SubmitProduct, UpdateProduct } from './commands/products.js';
import { SaveStore, type StoreImages } from './commands/store.js';
import {
  CategoryChangesDto,
  CategoryFormDto,
  ProductChangesDto,
  SimpleProductFormDto,
  StoreFormDto,
  StoreProductFormDto,
} from './dto/storefront.dto.js';
import { MerchantCategory, MerchantStore, Product } from './entities/storefront.entities.js';
import {
  categoryRecords,
  productRecords,
  productRecordsPage,
  storeRecord,
} from './queries/storefront-records.js';
import {
  PRODUCT_FILE_FIELDS,
  productImages,
  READ_ONLY_CATEGORY_FIELDS,
  READ_ONLY_PRODUCT_FIELDS,
  READ_ONLY_STORE_FIELDS,
  readStorefrontForm,
} from './storefront-forms.js';

/** react-admin's getMany asks for records by id: `filter={"id":[1,2]}` (or one id). */
const idsFilter = (value: unknown) => {
  const ids = [value]
    .flat()
    .filter(
      (id): id is number => Number.isInteger(id) && (id as number) > 0 && (id as number) <= 2_147_483_647,
    );
  return value === undefined || ids.length === 0 ? undefined : In(ids.slice(0, 100));
};

const contains = (text: unknown) =>
  typeof text === 'string' && text.trim() ? ILike(`%${text.trim().replace(/[%_\\]/g, '\\$&')}%`) : undefined;

/** The merchant's own store page settings: a react-admin singleton (GET and PUT, no id). */
@ApiTags('merchant')
@Controller('merchant/store')
export class MerchantStoreController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async get(@CurrentMerchantId() merchantId: number) {
    return storeRecord(
      merchantId,
      await this.dataSource.getRepository(MerchantStore).findOneBy({ merchantId }),
    );
  }

  /** JSON or the older client's multipart form (MerchantLogo, LandingBanner, HeroBannerImage files). */
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({
    type: StoreFormDto,
    description:
      'Images: MerchantLogo, LandingBanner, HeroBannerImage (files, data URLs, base64 or URLs; null removes).',
  })
  @Put()
  async save(@CurrentMerchantId() merchantId: number, @Req() request: FastifyRequest) {
    const { fields, images } = await readStorefrontForm(request, STORE_IMAGE_FIELDS, READ_ONLY_STORE_FIELDS);
    const form = await validateWithImage(StoreFormDto, fields);
    await this.commands.execute(new SaveStore(merchantId, form, images as StoreImages));
    return this.get(merchantId);
  }
}

/** The merchant's own store categories (react-admin REST). Another merchant's category is 404. */
@ApiTags('merchant')
@Controller('merchant/categories')
export class MerchantCategoriesController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private scope(merchantId: number) {
    return new MerchantScope(this.dataSource.getRepository(MerchantCategory), merchantId);
  }

  @Get()
  async list(
    @CurrentMerchantId() merchantId: number,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const list = reactAdminList(
      'categories',
      ['id', 'categoryName', 'createdAt', 'isActive'] as const,
      'id',
      'ASC',
    );
    return listAnswer(query, reply, list, async (page) => {
      const { q, isActive, id } = page.filter;
      const where: FindOptionsWhere<MerchantCategory> = {
        ...(idsFilter(id) && { id: idsFilter(id) }),
        ...(contains(q) && { categoryName: contains(q) }),
        ...(typeof isActive === 'boolean' && { isActive }),
      };
      const [categories, total] = await this.scope(merchantId).list({
        where,
        order: entityOrder(page),
        skip: page.offset,
        take: page.limit,
      });
      return { rows: await categoryRecords(this.dataSource.manager, categories), total };
    });
  }

  @Get(':id')
  async one(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    const [record] = await categoryRecords(this.dataSource.manager, [await this.scope(merchantId).get(id)]);
    return record!;
  }

  /** Answers the record with the spec's success text in `message`. */
  @Post()
  async create(@CurrentMerchantId() merchantId: number, @Req() request: FastifyRequest) {
    const { fields } = await readStorefrontForm(request, []);
    const form = await validateWithImage(CategoryFormDto, fields);
    const { categoryId } = await this.commands.execute(new CreateMerchantCategory(merchantId, form));
    return { ...(await this.one(merchantId, categoryId)), message: CATEGORY_FORM.created };
  }

  @Put(':id')
  async update(
    @CurrentMerchantId() merchantId: number,
    @Param('id', IdPipe) id: number,
    @Req() request: FastifyRequest,
  ) {
    // Another merchant's category is missing, whatever the body says.
    await this.scope(merchantId).get(id);
    const { fields } = await readStorefrontForm(request, [], READ_ONLY_CATEGORY_FIELDS);
    const changes = await validateWithImage(CategoryChangesDto, fields);
    await this.commands.execute(new UpdateMerchantCategory(merchantId, id, changes));
    return this.one(merchantId, id);
  }

  @Delete(':id')
  async remove(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    const category = await this.one(merchantId, id);
    await this.commands.execute(new DeleteMerchantCategory(merchantId, id));
    return category;
  }
}

/** The merchant's own products (react-admin REST), with their review state. */
@ApiTags('merchant')
@Controller('merchant/products')
export class MerchantProductsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private scope(merchantId: number) {
    return new MerchantScope(this.dataSource.getRepository(Product), merchantId);
  }

  @Get()
  async list(
    @CurrentMerchantId() merchantId: number,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const list = {
      resource: 'products',
      sortable: ['id', 'productName', 'status', 'submittedAt', 'price', 'updatedAt'],
      defaults: { sortField: 'id', order: 'DESC', perPage: 10 },
    } as const;
    return listAnswer(query, reply, list, async (page) => {
      const found = await this.scope(merchantId).list({
        where: productFilter(page.filter),
        // Records show `price` in rupees; the column holds paise, in the same order.
        order: entityOrder(page, page.sortField === 'price' ? 'pricePaise' : page.sortField),
        skip: page.offset,
        take: page.limit,
      });
      return productRecordsPage(this.dataSource.manager, found);
    });
  }

  @Get(':id')
  async one(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    const product = await this.scope(merchantId).get(id);
    return (await productRecords(this.dataSource.manager, [product.id]))[0];
  }

  /** Spec "Product upload (store)": CategoryId, ProductName, Brand, Price, Description, three images. */
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({
    type: StoreProductFormDto,
    description: 'Images: ImageSmall, ImageMedium, ImageLarge (at least one; one makes all three sizes).',
  })
  @Post()
  async submit(@CurrentMerchantId() merchantId: number, @Req() request: FastifyRequest) {
    const { fields, images } = await readStorefrontForm(
      request,
      PRODUCT_FILE_FIELDS,
      READ_ONLY_PRODUCT_FIELDS,
    );
    const given = productImages(images);
    const form = await validateWithImage(
      StoreProductFormDto,
      fields,
      Object.keys(given.bytes).length === 0
        ? { field: 'imageLarge', message: PRODUCT_FORM.images.required }
        : undefined,
    );
    const { productId } = await this.commands.execute(new SubmitProduct(merchantId, form, given));
    return { ...(await this.one(merchantId, productId)), message: PRODUCT_FORM.uploaded };
  }

  /** Spec "Product upload (simple)": ProductName, Price, MerchantURL and one ProductImage. */
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({
    type: SimpleProductFormDto,
    description: 'Image: ProductImage (required; all three sizes are made from it).',
  })
  @Post('simple')
  async submitSimple(@CurrentMerchantId() merchantId: number, @Req() request: FastifyRequest) {
    const { fields, images } = await readStorefrontForm(request, ['productImage']);
    const form = await validateWithImage(
      SimpleProductFormDto,
      fields,
      images.productImage
        ? undefined
        : { field: 'productImage', message: PRODUCT_FORM.productImage.required },
    );
    const { productId } = await this.commands.execute(
      new SubmitProduct(merchantId, form, productImages(images)),
    );
    return { ...(await this.one(merchantId, productId)), message: PRODUCT_FORM.uploaded };
  }

  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({ type: ProductChangesDto, description: 'Any subset of the fields; images as on upload.' })
  @Put(':id')
  async update(
    @CurrentMerchantId() merchantId: number,
    @Param('id', IdPipe) id: number,
    @Req() request: FastifyRequest,
  ) {
    // Another merchant's product is missing, whatever the body says.
    await this.scope(merchantId).get(id);
    const { fields, images } = await readStorefrontForm(
      request,
      PRODUCT_FILE_FIELDS,
      READ_ONLY_PRODUCT_FIELDS,
    );
    const changes = await validateWithImage(ProductChangesDto, fields);
    await this.commands.execute(new UpdateProduct(merchantId, id, changes, productImages(images)));
    return this.one(merchantId, id);
  }

  @Delete(':id')
  async remove(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    const product = await this.one(merchantId, id);
    await this.commands.execute(new DeleteProduct(merchantId, id));
    return product;
  }
}

/** The filters both product lists take: status, category, merchant (admins), name. */
export function productFilter(filter: Record<string, unknown>): FindOptionsWhere<Product> {
  const { status, categoryId, merchantId, q } = filter;
  const id = (value: unknown) =>
    Number.isInteger(value) && (value as number) > 0 && (value as number) <= 2_147_483_647
      ? (value as number)
      : undefined;
  return {
    ...(idsFilter(filter.id) && { id: idsFilter(filter.id) }),
    ...(PRODUCT_STATUSES.includes(status as never) && { status: status as Product['status'] }),
    ...(id(categoryId) && { categoryId: id(categoryId) }),
    ...(id(merchantId) && { merchantId: id(merchantId) }),
    ...(contains(q) && { productName: contains(q) }),
  };
}

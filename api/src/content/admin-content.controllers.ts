import {
  BadRequestException,
  Controller,
  Delete,
  Get,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  type Type,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource, ObjectLiteral } from 'typeorm';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import {
  entityOrder,
  filterFlag,
  filterText,
  listAnswer,
  reactAdminList,
  sendRange,
} from '../infrastructure/http/react-admin.js';
import { mediaUrl } from '../media/media.js';
import {
  CONTENT_DEFAULTS,
  CONTENT_MESSAGES as M,
  SEASONAL_OFFER_SLOTS,
  translatedField,
} from '../rules/content.js';
import { type ContentKind, RemoveContent, SaveContent } from './commands/content-commands.js';
import { type ContentFormOptions, readContentForm, validateContentForm } from './content-form.js';
import { BANNERS, BEST_OFFER_BANNERS, FLASH_TEXTS, HERO_IMAGES, SEASONAL_OFFERS } from './content-kinds.js';
import {
  BannerChanges,
  BannerForm,
  BestOfferBannerChanges,
  BestOfferBannerForm,
  FlashTextChanges,
  FlashTextForm,
  HeroImageChanges,
  HeroImageForm,
  SeasonalOfferChanges,
  SeasonalOfferForm,
} from './dto/content-forms.dto.js';
import type { FlashText, SeasonalOffer } from './entities/content.entities.js';

/** A record as the back-office shows it: the image as a URL, never its bytes. */
function withImageUrl({ imageId, ...record }: ObjectLiteral) {
  return { ...record, imageUrl: mediaUrl(imageId) };
}

/** The list filter as column values; a value of the wrong type is a 400, not a database error. */
function listFilter(filter: Record<string, unknown>, columns: Record<string, 'flag' | 'text'>) {
  const where: Record<string, string | boolean> = {};
  for (const [name, type] of Object.entries(columns)) {
    const value = type === 'flag' ? filterFlag(filter, name) : filterText(filter, name);
    if (value !== undefined) where[name] = value;
  }
  return where;
}

/** Each translated text of a kind, with the message when its English is missing. */
type TranslatedTexts = Record<string, string>;

const PICTURE_TEXTS: TranslatedTexts = { title: M.titleRequired, altText: M.altTextRequired };

/**
 * English is the text every visitor can be shown: it cannot be cleared, and a translation needs
 * it (rows made before pictures had texts have none, and may stay so until one is given).
 */
function translationErrors(
  record: ObjectLiteral,
  sent: ObjectLiteral,
  texts: TranslatedTexts,
): Record<string, string[]> | undefined {
  const errors: Record<string, string[]> = {};
  for (const [field, required] of Object.entries(texts)) {
    if (field in sent && !sent[field]) errors[field] = [required];
    else if (!record[field] && (record[translatedField(field, 'hi')] || record[translatedField(field, 'te')]))
      errors[field] = [M.englishFirst];
  }
  return Object.keys(errors).length ? errors : undefined;
}

function refuse(errors: Record<string, string[]>, message?: string): never {
  throw new BadRequestException({ statusCode: 400, message: message ?? Object.values(errors)[0][0], errors });
}

interface ContentResource extends ContentFormOptions {
  kind: ContentKind;
  resource: string;
  form: Type<object>;
  changes: Type<object>;
  sortable: readonly string[];
  defaultSort: string;
  /** Values of a new record that the form left out. */
  defaults: Record<string, unknown>;
  /** List filters the back-office may use, each an exact match on a column of this type. */
  filters: Record<string, 'flag' | 'text'>;
  /** A rule across fields, checked with the record as it would be saved. */
  check?: (record: ObjectLiteral, hasImage: boolean) => Record<string, string[]> | undefined;
  /** The texts given in English, Hindi and Telugu. */
  texts: TranslatedTexts;
}

/**
 * The react-admin REST resource of one kind of content (list, show, create, update, delete).
 * Every change is a command, so it reaches the home page through its event.
 */
function contentController(path: string, config: ContentResource) {
  @ApiTags('admin content')
  @Controller(path)
  class ContentController {
    constructor(
      readonly commands: CommandBus,
      @InjectDataSource() readonly dataSource: DataSource,
    ) {}

    get repository() {
      return this.dataSource.getRepository(config.kind.entity);
    }

    @Get()
    async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
      const list = reactAdminList(config.resource, config.sortable, config.defaultSort, 'ASC');
      return listAnswer(query, reply, list, async (page) => {
        const [records, total] = await this.repository.findAndCount({
          where: listFilter(page.filter, config.filters),
          order: entityOrder(page),
          skip: page.offset,
          take: page.limit,
        });
        return { rows: records.map(withImageUrl), total };
      });
    }

    @Get(':id')
    async one(@Param('id', IdPipe) id: number) {
      const record = await this.repository.findOneBy({ id });
      if (!record) throw new NotFoundException({ statusCode: 404, message: config.kind.notFound });
      return withImageUrl(record);
    }

    @Post()
    async create(@Req() request: FastifyRequest) {
      const { fields, image } = await readContentForm(request, config);
      const form = await validateContentForm(
        config.form,
        fields,
        image ? undefined : config.kind.imageRequired,
        config.kind.invalidMessage,
      );
      const record = { ...config.defaults, ...form };
      this.checkRule(record, form, Boolean(image));
      const { id } = await this.commands.execute(new SaveContent(config.kind, undefined, record, image));
      return this.one(id);
    }

    @Put(':id')
    async update(@Param('id', IdPipe) id: number, @Req() request: FastifyRequest) {
      const { fields, image } = await readContentForm(request, config);
      const changes = await validateContentForm(
        config.changes,
        fields,
        undefined,
        config.kind.invalidMessage,
      );
      const current = await this.repository.findOneBy({ id });
      if (!current) throw new NotFoundException({ statusCode: 404, message: config.kind.notFound });
      this.checkRule({ ...current, ...changes }, changes, Boolean(image || current.imageId));
      await this.commands.execute(new SaveContent(config.kind, id, changes, image));
      return this.one(id);
    }

    @Delete(':id')
    async remove(@Param('id', IdPipe) id: number) {
      const record = await this.one(id);
      await this.commands.execute(new RemoveContent(config.kind, id));
      return record;
    }

    checkRule(record: ObjectLiteral, sent: ObjectLiteral, hasImage: boolean) {
      const errors = {
        ...translationErrors(record, sent, config.texts),
        ...config.check?.(record, hasImage),
      };
      if (Object.keys(errors).length) refuse(errors, config.kind.invalidMessage);
    }
  }
  // Logs and the OpenAPI document name the controller after its resource.
  Object.defineProperty(ContentController, 'name', { value: `Admin${config.kind.name}Controller` });
  return ContentController;
}

export const AdminHeroImagesController = contentController('admin/heroes', {
  kind: HERO_IMAGES,
  resource: 'heroes',
  form: HeroImageForm,
  changes: HeroImageChanges,
  // The older client's upload form: Image, MerchantURL.
  sortable: ['id', 'sortOrder', 'updatedAt', 'isActive'],
  defaultSort: 'sortOrder',
  defaults: { sortOrder: 0, isActive: true },
  filters: { isActive: 'flag' },
  texts: PICTURE_TEXTS,
});

export const AdminBannersController = contentController('admin/banners', {
  kind: BANNERS,
  resource: 'banners',
  form: BannerForm,
  changes: BannerChanges,
  // The older client's left/right banner form: Data, Id, postion (spelt so), MerchantURL.
  aliases: { postion: 'position', data: 'image' },
  sortable: ['id', 'position', 'sortOrder', 'updatedAt', 'isActive'],
  defaultSort: 'position',
  defaults: { sortOrder: 0, isActive: true },
  filters: { position: 'text', isActive: 'flag' },
  texts: PICTURE_TEXTS,
});

export const AdminFlashTextsController = contentController('admin/flash-texts', {
  kind: FLASH_TEXTS,
  resource: 'flash-texts',
  form: FlashTextForm,
  changes: FlashTextChanges,
  // The older client's fields: flash_Text, contentType, position, isActive, merchantURL, imageData.
  aliases: { flash_Text: 'text', flashText: 'text', imageData: 'image' },
  sortable: ['id', 'position', 'updatedAt', 'isActive'],
  defaultSort: 'id',
  defaults: {
    text: CONTENT_DEFAULTS.flashText,
    contentType: CONTENT_DEFAULTS.flashContentType,
    position: CONTENT_DEFAULTS.flashPosition,
    isActive: true,
    merchantUrl: null,
  },
  filters: { position: 'text', isActive: 'flag' },
  check: (record, hasImage) =>
    (record as FlashText).contentType === 'image' && !hasImage
      ? { image: [M.flashImageRequired] }
      : undefined,
  texts: { text: M.flashTextRequired },
});

export const AdminBestOfferBannersController = contentController('admin/best-offer-banners', {
  kind: BEST_OFFER_BANNERS,
  resource: 'best-offer-banners',
  form: BestOfferBannerForm,
  changes: BestOfferBannerChanges,
  // The older client's fields: ImageBytes or UploadedImage, FileName, ContentType, Frame,
  // MerchantURL, UploadDate. The type is read from the bytes and the date is the server's.
  aliases: { imageBytes: 'image', uploadedImage: 'image' },
  ignored: ['fileName', 'contentType', 'uploadDate'],
  sortable: ['id', 'uploadedAt', 'isActive', 'name'],
  defaultSort: 'id',
  defaults: {
    name: CONTENT_DEFAULTS.bestOfferBanner,
    type: CONTENT_DEFAULTS.bestOfferBanner,
    frame: CONTENT_DEFAULTS.bestOfferBanner,
    isActive: true,
  },
  filters: { isActive: 'flag', frame: 'text' },
  texts: { name: M.nameRequired },
});

/** Seasonal offers are four fixed slots; a record's id is its slot, and an empty slot shows as such. */
@ApiTags('admin content')
@Controller('admin/seasonal-offers')
export class AdminSeasonalOffersController {
  private readonly options: ContentFormOptions = {
    // The older client's form: Id (the slot), Data (the image), MerchantURL.
    aliases: { id: 'slot', data: 'image' },
    ignored: ['updatedAt', 'imageUrl'],
  };

  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Res({ passthrough: true }) reply: FastifyReply) {
    const offers = await this.dataSource.getRepository<SeasonalOffer>(SEASONAL_OFFERS.entity).find();
    sendRange(reply, 'seasonal-offers', 0, SEASONAL_OFFER_SLOTS.length, SEASONAL_OFFER_SLOTS.length);
    return SEASONAL_OFFER_SLOTS.map((slot) =>
      view(
        slot,
        offers.find((offer) => offer.slot === slot),
      ),
    );
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    if (!SEASONAL_OFFER_SLOTS.includes(id as 1)) {
      throw new NotFoundException({ statusCode: 404, message: M.seasonalSlot });
    }
    const offer = await this.dataSource
      .getRepository<SeasonalOffer>(SEASONAL_OFFERS.entity)
      .findOneBy({ slot: id });
    return view(id, offer ?? undefined);
  }

  /** The older client's upload (slot, image and link) with the picture's texts, all required. */
  @Post()
  async save(@Req() request: FastifyRequest) {
    const { fields, image } = await readContentForm(request, this.options);
    const { slot, ...values } = await validateContentForm(
      SeasonalOfferForm,
      fields,
      image ? undefined : M.seasonalAllRequired,
      M.seasonalAllRequired,
    );
    await this.commands.execute(new SaveContent(SEASONAL_OFFERS, slot, values, image));
    return this.one(slot);
  }

  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Req() request: FastifyRequest) {
    const current = await this.one(id);
    const { fields, image } = await readContentForm(request, { ...this.options, ignored: ['slot', 'id'] });
    // Filling an empty slot needs everything; changing a filled one, only what changes.
    const values = current.imageUrl
      ? await validateContentForm(SeasonalOfferChanges, fields, undefined, M.seasonalAllRequired)
      : await validateContentForm(
          SeasonalOfferForm,
          { ...fields, slot: id },
          image ? undefined : M.seasonalAllRequired,
          M.seasonalAllRequired,
        );
    const { slot: _slot, ...changes } = values as SeasonalOfferForm;
    const errors = translationErrors({ ...current, ...changes }, changes, PICTURE_TEXTS);
    if (errors) refuse(errors, M.seasonalAllRequired);
    await this.commands.execute(new SaveContent(SEASONAL_OFFERS, id, changes, image));
    return this.one(id);
  }

  /** Empties the slot. */
  @Delete(':id')
  async clear(@Param('id', IdPipe) id: number) {
    const current = await this.one(id);
    await this.commands.execute(new RemoveContent(SEASONAL_OFFERS, id));
    return current;
  }
}

function view(slot: number, offer?: SeasonalOffer) {
  return {
    id: slot,
    slot,
    imageUrl: mediaUrl(offer?.imageId),
    merchantUrl: offer?.merchantUrl ?? null,
    title: offer?.title ?? null,
    titleHi: offer?.titleHi ?? null,
    titleTe: offer?.titleTe ?? null,
    altText: offer?.altText ?? null,
    altTextHi: offer?.altTextHi ?? null,
    altTextTe: offer?.altTextTe ?? null,
    updatedAt: offer?.updatedAt ?? null,
  };
}

export const ADMIN_CONTENT_CONTROLLERS = [
  AdminHeroImagesController,
  AdminBannersController,
  AdminFlashTextsController,
  AdminBestOfferBannersController,
  AdminSeasonalOffersController,
];

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsNotEmpty,
  IsString,
  IsUrl,
  MaxLength,
  MinLength,
  registerDecorator,
  ValidateIf,
} from 'class-validator';
import { IsOptional, Nullable, Trim, WholeNumber } from '../../infrastructure/http/field-decorators.js';
import {
  CATEGORY_FORM,
  PRODUCT_FORM as P,
  PRICE_PATTERN,
  PRODUCT_REVIEW,
  STORE_FORM,
} from '../../rules/storefront.js';

/** true/false as JSON sends them, or "true"/"false" (any case) as a form sends them. */
const BooleanField = (message: string) => (target: object, property: string) => {
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
  })(target, property);
  IsBoolean({ message })(target, property);
};

/** Optional text: trimmed, a string, at most `maxLength`; null clears it. */
const OptionalText = (maxLength: number, tooLong: string) => (target: object, property: string) => {
  Trim()(target, property);
  Nullable()(target, property);
  IsString({ message: tooLong })(target, property);
  MaxLength(maxLength, { message: tooLong })(target, property);
};

/** A required text field: trimmed, present, a string, at most `maxLength` with the form's message. */
const Required =
  (required: string, maxLength: number, tooLong: string) => (target: object, property: string) => {
    Trim()(target, property);
    IsNotEmpty({ message: required })(target, property);
    IsString({ message: required })(target, property);
    MaxLength(maxLength, { message: tooLong })(target, property);
  };

/** Rupees with up to two decimals, as text or a JSON number; more than zero. */
const Price = () => (target: object, property: string) => {
  Transform(({ value }) =>
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value,
  )(target, property);
  IsNotEmpty({ message: P.price.required })(target, property);
  registerDecorator({
    name: 'isPrice',
    target: target.constructor,
    propertyName: property,
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && PRICE_PATTERN.test(value) && /[1-9]/.test(value),
      defaultMessage: (args) =>
        typeof args?.value === 'string' && PRICE_PATTERN.test(args.value) ? P.price.zero : P.price.invalid,
    },
  });
};

const WebAddress = () => (target: object, property: string) => {
  Trim()(target, property);
  Nullable()(target, property);
  IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: P.merchantUrl.invalid })(
    target,
    property,
  );
  MaxLength(2048, { message: P.merchantUrl.invalid })(target, property);
};

export class StoreFormDto {
  @ApiProperty({ example: 'Glow Cosmetics' })
  @Required(STORE_FORM.storeName.required, STORE_FORM.storeName.maxLength, STORE_FORM.storeName.tooLong)
  storeName: string;

  @ApiPropertyOptional()
  @OptionalText(STORE_FORM.storeAddress.maxLength, STORE_FORM.storeAddress.tooLong)
  storeAddress?: string;

  @ApiPropertyOptional()
  @OptionalText(STORE_FORM.tagline.maxLength, STORE_FORM.tagline.tooLong)
  tagline?: string;

  @ApiPropertyOptional()
  @OptionalText(STORE_FORM.aboutDescription.maxLength, STORE_FORM.aboutDescription.tooLong)
  aboutDescription?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @BooleanField(STORE_FORM.isActive.invalid)
  isActive?: boolean;
}

export class CategoryFormDto {
  @ApiProperty({ example: 'Face serums', maxLength: 100 })
  @Required(
    CATEGORY_FORM.categoryName.required,
    CATEGORY_FORM.categoryName.maxLength,
    CATEGORY_FORM.categoryName.tooLong,
  )
  categoryName: string;

  @ApiPropertyOptional()
  @OptionalText(CATEGORY_FORM.description.maxLength, CATEGORY_FORM.description.tooLong)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @BooleanField(CATEGORY_FORM.isActive.invalid)
  isActive?: boolean;
}

/** Editing a category: any subset of the fields. */
export class CategoryChangesDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Required(
    CATEGORY_FORM.categoryName.required,
    CATEGORY_FORM.categoryName.maxLength,
    CATEGORY_FORM.categoryName.tooLong,
  )
  categoryName?: string;

  @ApiPropertyOptional()
  @OptionalText(CATEGORY_FORM.description.maxLength, CATEGORY_FORM.description.tooLong)
  description?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @BooleanField(CATEGORY_FORM.isActive.invalid)
  isActive?: boolean;
}

/** Spec "Product upload (simple)": ProductName, Price, MerchantURL, ProductImage (a file). */
export class SimpleProductFormDto {
  @ApiProperty({ example: 'Vitamin C serum' })
  @Required(P.productName.required, P.productName.maxLength, P.productName.tooLong)
  @MinLength(P.productName.minLength, { message: P.productName.tooShort })
  productName: string;

  @ApiProperty({ example: '1299.50', description: 'Rupees with up to 2 decimals.' })
  @Price()
  price: string;

  @ApiPropertyOptional({ example: 'https://glow.example.in/serum' })
  @WebAddress()
  merchantUrl?: string;
}

/** Spec "Product upload (store)": a product on one of the merchant's own categories. */
export class StoreProductFormDto extends SimpleProductFormDto {
  @ApiProperty()
  @WholeNumber(P.categoryId.required, P.categoryId.notYours, 1, 2_147_483_647)
  categoryId: number;

  @ApiPropertyOptional()
  @OptionalText(P.brand.maxLength, P.brand.tooLong)
  brand?: string;

  @ApiPropertyOptional()
  @OptionalText(P.description.maxLength, P.description.tooLong)
  description?: string;
}

/** Editing a product: any subset of the fields; `categoryId: null` takes it off its category. */
export class ProductChangesDto {
  @ApiPropertyOptional()
  @IsOptional()
  @Required(P.productName.required, P.productName.maxLength, P.productName.tooLong)
  @MinLength(P.productName.minLength, { message: P.productName.tooShort })
  productName?: string;

  @ApiPropertyOptional({ example: '1299.50' })
  @IsOptional()
  @Price()
  price?: string;

  @ApiPropertyOptional({ nullable: true })
  @WebAddress()
  merchantUrl?: string | null;

  @ApiPropertyOptional({ nullable: true, description: 'null takes the product off its category.' })
  @ValidateIf((_dto, value) => value !== null && value !== undefined)
  @WholeNumber(P.categoryId.required, P.categoryId.notYours, 1, 2_147_483_647)
  categoryId?: number | null;

  @ApiPropertyOptional()
  @OptionalText(P.brand.maxLength, P.brand.tooLong)
  brand?: string;

  @ApiPropertyOptional()
  @OptionalText(P.description.maxLength, P.description.tooLong)
  description?: string;
}

export class RejectProductDto {
  @ApiPropertyOptional({ default: PRODUCT_REVIEW.defaultReason })
  @OptionalText(PRODUCT_REVIEW.reasonMaxLength, PRODUCT_REVIEW.tooLong)
  reason?: string;

  @ApiPropertyOptional({ default: PRODUCT_REVIEW.defaultAdvisedChanges })
  @OptionalText(PRODUCT_REVIEW.advisedChangesMaxLength, PRODUCT_REVIEW.tooLong)
  advisedChanges?: string;
}

import { Typography } from '@mui/material';
import type { Category } from '@offers/api/contracts';
import {
  COUPON_CODE,
  COUPON_TEXT_FIELDS,
  COUPON_TEXT_LANGUAGES,
  COUPON_FORM as F,
  WEB_ADDRESS_SHAPE,
} from '@offers/api/rules';
import type { ComponentProps, ReactElement } from 'react';
import { Fragment, useEffect, useState } from 'react';
import {
  CheckboxGroupInput,
  DateInput,
  maxLength,
  maxValue,
  minLength,
  minValue,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  type Toolbar,
  useGetList,
  useTranslate,
} from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import { httpClient } from '../providers/httpClient';
import { ImageUpload } from '../uploads/ImageUpload';

/** Only digits survive typing or pasting into the number fields (spec §5: only digit keys accepted). */
export const digitsOnly = (value: string | number | null | undefined) =>
  value == null ? '' : String(value).replace(/\D/g, '');

const blockNonDigitKeys = (event: React.KeyboardEvent) => {
  if (event.key.length === 1 && !/\d/.test(event.key) && !event.ctrlKey && !event.metaKey)
    event.preventDefault();
};

const futureDate = (message: string) => (value: string | undefined) => {
  if (!value) return undefined;
  const day = String(value).slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  return day < today ? message : undefined;
};

/** The categories of the shop front (a plain list from the public API). */
export function useCategories() {
  const [categories, setCategories] = useState<Category[]>([]);
  useEffect(() => {
    let live = true;
    httpClient(`${API_URL}/categories`)
      .then(({ json }) => live && setCategories(Array.isArray(json) ? json : (json.data ?? [])))
      .catch(() => live && setCategories([]));
    return () => {
      live = false;
    };
  }, []);
  return categories;
}

const numberInputProps = { inputMode: 'numeric' as const, pattern: '[0-9]*', onKeyDown: blockNonDigitKeys };

/**
 * The title, description and terms in Hindi and Telugu, each optional and within the English
 * field's limits; the API also asks for a title and a description together, naming the missing one.
 */
const OtherLanguageTexts = () => {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {translate('resources.coupons.fields.otherLanguages')}
      </Typography>
      {COUPON_TEXT_LANGUAGES.map((language) => {
        const fields = COUPON_TEXT_FIELDS[language];
        const htmlInput = { slotProps: { htmlInput: { lang: language } } };
        return (
          <Fragment key={language}>
            <TextInput
              source={fields.title}
              validate={maxLength(F.title.maxLength, 'offers.coupon.titleLong')}
              fullWidth
              {...htmlInput}
            />
            <TextInput
              source={fields.description}
              multiline
              validate={maxLength(F.description.maxLength, 'offers.coupon.descriptionLong')}
              fullWidth
              {...htmlInput}
            />
            <TextInput
              source={fields.terms}
              multiline
              validate={minLength(F.termsAndConditions.minLength, 'offers.coupon.termsShort')}
              fullWidth
              {...htmlInput}
            />
          </Fragment>
        );
      })}
    </>
  );
};

/** Every rule of spec §5 "Coupon upload", with the API's messages; the API checks them again. */
export const CouponForm = ({
  toolbar,
}: {
  toolbar?: ReactElement<ComponentProps<typeof Toolbar>> | false;
}) => {
  const translate = useTranslate();
  const categories = useCategories();
  const { data: slots = [] } = useGetList('merchant-slots', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  return (
    <SimpleForm toolbar={toolbar} mode="onBlur" reValidateMode="onChange">
      <TextInput
        source="couponName"
        validate={[
          required('offers.coupon.couponNameRequired'),
          minLength(F.couponName.minLength, 'offers.coupon.couponNameShort'),
        ]}
        fullWidth
      />
      <TextInput
        source="couponCode"
        validate={[
          required('offers.coupon.couponCodeRequired'),
          regex(COUPON_CODE, 'offers.coupon.couponCodeInvalid'),
        ]}
      />
      <DateInput
        source="expiryDate"
        validate={[required('offers.coupon.expiryRequired'), futureDate('offers.coupon.expiryPast')]}
      />
      <TextInput
        source="title"
        validate={[
          required('offers.coupon.titleRequired'),
          maxLength(F.title.maxLength, 'offers.coupon.titleLong'),
        ]}
        fullWidth
      />
      <TextInput
        source="description"
        multiline
        validate={[
          required('offers.coupon.descriptionRequired'),
          maxLength(F.description.maxLength, 'offers.coupon.descriptionLong'),
        ]}
        fullWidth
      />
      <TextInput
        source="termsAndConditions"
        multiline
        validate={[
          required('offers.coupon.termsRequired'),
          minLength(F.termsAndConditions.minLength, 'offers.coupon.termsShort'),
        ]}
        fullWidth
      />
      <OtherLanguageTexts />
      <TextInput
        source="percentage"
        parse={digitsOnly}
        format={digitsOnly}
        slotProps={{ htmlInput: numberInputProps }}
        validate={[
          required('offers.coupon.percentageRequired'),
          minValue(F.percentage.min, 'offers.coupon.percentageInvalid'),
          maxValue(F.percentage.max, 'offers.coupon.percentageInvalid'),
        ]}
      />
      <TextInput
        source="discountValue"
        parse={digitsOnly}
        format={digitsOnly}
        slotProps={{ htmlInput: numberInputProps }}
        validate={[
          required('offers.coupon.discountRequired'),
          minValue(F.discountValue.min, 'offers.coupon.discountInvalid'),
        ]}
      />
      <SelectInput
        source="requestedSlotId"
        choices={slots.map((slot) => ({
          id: slot.id,
          name:
            slot.kind === 'paid'
              ? `${slot.name} (₹${slot.price})`
              : `${slot.name} (${translate('resources.slots.fields.free')})`,
        }))}
        validate={required('offers.coupon.slotRequired')}
      />
      <TextInput
        source="merchantUrl"
        type="url"
        validate={regex(WEB_ADDRESS_SHAPE, 'offers.coupon.urlInvalid')}
        fullWidth
      />
      <CheckboxGroupInput
        source="categoryIds"
        choices={categories}
        validate={required('offers.coupon.categoriesRequired')}
      />
      <ImageUpload source="adPost" isRequired={false} />
    </SimpleForm>
  );
};

import { useTranslation } from '../islands/I18nIsland.tsx';
import { TextAreaField, TextField } from '../forms/fields.tsx';
import { GIFT_MESSAGE_MAX } from '../../lib/gift-limits.ts';
import type { GiftField, PostedGift } from '../../lib/gift.schema.ts';

/** The gift's fields' first values: as posted, or empty. */
export const giftValues = (posted: PostedGift | undefined): Record<GiftField, string> =>
  posted?.values ?? { giftTo: '', giftMessage: '', giftDate: '' };

/** The posted gift's errors, shown at their fields from the first render. */
export const postedGiftErrors = (posted: PostedGift | undefined) =>
  posted ? { posted: { form: 'checkout', values: {}, errors: posted.errors, failure: null } } : {};

interface Props {
  bind: (name: GiftField) => {
    id: string;
    name: string;
    value: string;
    error: string | undefined;
    onChange: (event: { target: { value: string } }) => void;
  };
  /** The first and last days the server accepts (today somewhere on Earth; a year ahead), for the browser's own check. */
  days: { earliest: string; latest: string };
}

/** A gift's fields on the checkout form (decision 52): the recipient, a message and the day it is delivered. */
export function GiftFields({ bind, days }: Props) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-3 rounded-lg border border-gray-200 p-3">
      <legend className="px-1 font-semibold">{t('gifts.fieldsTitle')}</legend>
      <TextField label={t('gifts.recipient')} type="email" required hint={t('gifts.recipientHint')} {...bind('giftTo')} />
      <TextAreaField label={t('gifts.message')} rows={3} maxLength={GIFT_MESSAGE_MAX} {...bind('giftMessage')} />
      <TextField
        label={t('gifts.date')}
        type="date"
        required
        min={days.earliest}
        max={days.latest}
        hint={t('gifts.dateHint')}
        {...bind('giftDate')}
      />
      <p className="text-sm text-gray-600">{t('gifts.receiptNote')}</p>
    </fieldset>
  );
}

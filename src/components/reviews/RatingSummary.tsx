import { formatRating, starRow } from '../../lib/ratings.ts';
import type { Language } from '../../i18n/languages.ts';

type Translate = (key: 'reviews.count', options: { count: number }) => string;

/**
 * A course's real rating, "★★★★☆ 4.3/5 (12 reviews)" (the stars are only a picture of the number).
 * Rendered on the server for the course page and inside the catalogue's cards alike; nothing at all
 * until a review counts.
 */
export function RatingSummary({
  rating,
  lang,
  t,
  className = '',
}: {
  rating: { average: number; count: number } | null;
  lang: Language;
  t: Translate;
  className?: string;
}) {
  if (!rating) return null;
  const average = formatRating(rating.average, lang);
  return (
    <p className={`flex flex-wrap items-center gap-x-1.5 ${className}`}>
      <span aria-hidden="true" className="tracking-tight text-amber-600">
        {starRow(rating.average)}
      </span>
      <span>
        <span className="font-semibold text-gray-900">{average}</span>/5
      </span>
      <span className="text-gray-600">{`(${t('reviews.count', { count: rating.count })})`}</span>
    </p>
  );
}

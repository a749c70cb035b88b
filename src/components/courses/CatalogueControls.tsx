import { filtersToQuery, type CourseFilters } from '../../lib/course-filters.ts';
import { catalogueUrl } from '../../lib/course-links.ts';
import type { Language } from '../../i18n/languages.ts';

/** The catalogue's form controls: a labelled select, and a page link that navigates in place. */
export function Select(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={props.id} className="block text-sm font-semibold">
        {props.label}
      </label>
      <select
        id={props.id}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className="mt-1 w-full rounded-lg border border-gray-300 bg-white px-3 py-2"
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function PageLink(props: {
  lang: Language;
  filters: CourseFilters;
  page: number;
  disabled: boolean;
  label: string;
  onNavigate: (filters: CourseFilters) => void;
}) {
  if (props.disabled) return <span className="px-4 py-2 text-gray-500">{props.label}</span>;
  const target = { ...props.filters, page: props.page };
  return (
    <a
      href={catalogueUrl(props.lang, filtersToQuery(target))}
      onClick={(event) => {
        event.preventDefault();
        props.onNavigate(target);
      }}
      className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50"
    >
      {props.label}
    </a>
  );
}

import type { SubmitEvent } from 'react';

/** Above every admin list: its search box (Enter searches at once, typing after a pause) and its "new" button, if it has one. */
export function ListToolbar({
  id,
  searchLabel,
  placeholder,
  search,
  onSearch,
  onSubmit,
  addLabel,
  onAdd,
}: {
  id: string;
  searchLabel: string;
  placeholder: string;
  search: string;
  onSearch: (text: string) => void;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => void;
  addLabel?: string;
  onAdd?: () => void;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <form role="search" onSubmit={onSubmit} className="w-full max-w-md">
        <label htmlFor={id} className="block text-sm font-semibold">
          {searchLabel}
        </label>
        <input
          id={id}
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder={placeholder}
          className="mt-1 w-full rounded-lg border border-gray-300 px-3 py-2"
        />
      </form>
      {addLabel && onAdd && (
        <button
          type="button"
          onClick={onAdd}
          className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          {addLabel}
        </button>
      )}
    </div>
  );
}

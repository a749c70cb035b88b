import type { ButtonHTMLAttributes, ReactNode } from 'react';

export interface Column {
  label: string;
  /** Numbers and row actions line up on the right. */
  end?: boolean;
  /** A column whose cells say what they are (e.g. buttons): its name is for screen readers only. */
  unseen?: boolean;
}

/** Every admin list's table: a frame that scrolls sideways on a phone, a name, one header row; the rows are the children. */
export function AdminTable({
  caption,
  labelledBy,
  columns,
  children,
}: {
  columns: Column[];
  children: ReactNode;
} & ({ caption: string; labelledBy?: never } | { labelledBy: string; caption?: never })) {
  return (
    // Positioned, so screen-reader-only text in the rows scrolls with the table instead of widening the page.
    <div className="relative overflow-x-auto rounded-xl border border-gray-200">
      <table aria-labelledby={labelledBy} className="w-full min-w-[40rem] text-left text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-gray-50 text-xs uppercase tracking-wide text-gray-600">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.end ? 'px-4 py-3 text-right' : 'px-4 py-3'}>
                {column.unseen ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200">{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A row's action (in a table or a list): its verb on screen, and for screen readers the row it acts
 * on, so "Delete" reads "Delete Spring sale" among many.
 */
export function RowAction({
  label,
  target,
  danger = false,
  ...button
}: { label: string; target: ReactNode; danger?: boolean } & Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'className' | 'children'
>) {
  const tone = danger ? 'border-red-200 text-red-700 hover:bg-red-50' : 'border-gray-300 hover:bg-gray-50';
  return (
    <button
      type="button"
      className={`whitespace-nowrap rounded-lg border px-3 py-1.5 font-medium disabled:opacity-60 ${tone}`}
      {...button}
    >
      {label}
      <span className="sr-only"> {target}</span>
    </button>
  );
}

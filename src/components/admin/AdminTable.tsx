import type { ReactNode } from 'react';

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

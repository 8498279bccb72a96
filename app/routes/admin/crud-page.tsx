import type { ReactNode } from 'react';
import { CrudEditor, type CrudEditorProps } from './crud-editor.tsx';
import { CrudTable, type CrudTableProps } from './crud-table.tsx';

/**
 * A back-office page for one kind of item (bundles, gifts, discount codes, companies): the list,
 * and beside it (below on smaller screens) the editor of the item `?edit=` names, or of a new one.
 */
export function AdminCrudPage<Item extends { id: number }>({
  heading,
  above,
  lead,
  beforeList,
  listWidth = 7,
  editor,
  children,
  ...table
}: Omit<CrudTableProps<Item>, 'label'> & {
  heading: string;
  /** Above the heading (the way back…). */
  above?: ReactNode;
  /** A line under the heading. */
  lead?: string;
  /** Between the lead and the list (its filter). */
  beforeList?: ReactNode;
  /** The list's share of the 12 columns from 1200 px; the editor has the rest. */
  listWidth?: 7 | 8;
  editor: Omit<CrudEditorProps, 'children'>;
  /** The editor's fields. */
  children: ReactNode;
}) {
  return (
    <div className="row g-3">
      <div className={`col-12 col-xl-${listWidth}`}>
        {above}
        <h1 className="h4">{heading}</h1>
        {lead && <p className="text-body-secondary small">{lead}</p>}
        {beforeList}
        <CrudTable label={heading} {...table} />
      </div>
      <div className={`col-12 col-xl-${12 - listWidth}`}>
        <CrudEditor {...editor}>{children}</CrudEditor>
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import { TableScroll } from './table-scroll.tsx';

export type CrudColumn<Item> = { header: ReactNode; cell: (item: Item) => ReactNode; className?: string };

export type CrudTableProps<Item extends { id: number }> = {
  items: Item[];
  /** The table's name for the keyboard's scroll region on a narrow screen (the page's heading). */
  label: string;
  columns: CrudColumn<Item>[];
  /** The page's own address: each row's edit link opens the item there (`?edit=`). */
  path: string;
  rowClassName?: (item: Item) => string | undefined;
  rowTestId?: (item: Item) => string;
  /** Shown as the only row when there are no items. */
  empty?: string;
  /** More actions beside the edit link (enable, disable…). */
  rowActions?: (item: Item) => ReactNode;
};

/** A back-office list: one row an item, its edit link last. */
export function CrudTable<Item extends { id: number }>({
  items,
  label,
  columns,
  path,
  rowClassName,
  rowTestId,
  empty,
  rowActions,
}: CrudTableProps<Item>) {
  const { t } = useTranslation();
  return (
    <TableScroll label={label}>
      <table className="table table-sm align-middle">
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a page.
              <th key={index}>{column.header}</th>
            ))}
            <th>
              <span className="visually-hidden">{t('admin:member.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {empty !== undefined && items.length === 0 && (
            <tr>
              <td colSpan={columns.length + 1} className="text-body-secondary">
                {empty}
              </td>
            </tr>
          )}
          {items.map((item) => (
            <tr key={item.id} className={rowClassName?.(item)} data-testid={rowTestId?.(item)}>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for a page.
                <td key={index} className={column.className}>
                  {column.cell(item)}
                </td>
              ))}
              <td className={rowActions ? 'text-nowrap' : undefined}>
                <Link
                  to={`${path}?edit=${item.id}`}
                  className={`btn btn-outline-primary btn-sm${rowActions ? ' me-1' : ''}`}
                >
                  {t('admin:sites.edit')}
                </Link>
                {rowActions?.(item)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

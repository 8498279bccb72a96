import { NavLink } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';

export const likesTabs = ['received', 'given', 'matches', 'visitors'] as const;
export type LikesTab = (typeof likesTabs)[number];

const pathOf = (tab: LikesTab) => (tab === 'received' ? '/likes' : `/likes/${tab}`);

/** The tabs of the likes area: who liked you, whom you liked, matches, who viewed you. */
export function LikesNav({
  active,
  counts,
}: {
  active: LikesTab;
  counts: Partial<Record<LikesTab, number>>;
}) {
  const { t } = useTranslation();
  return (
    <nav className="nav nav-pills mb-3 gap-1" aria-label={t('page.likes')}>
      {likesTabs.map((tab) => (
        <NavLink
          key={tab}
          to={pathOf(tab)}
          end
          className={`nav-link text-nowrap${tab === active ? ' active' : ''}`}
          aria-current={tab === active ? 'page' : undefined}
        >
          {t(`likes:tab.${tab}`)}
          {(counts[tab] ?? 0) > 0 && (
            <span className="badge rounded-pill text-bg-light ms-1">{counts[tab]}</span>
          )}
        </NavLink>
      ))}
    </nav>
  );
}

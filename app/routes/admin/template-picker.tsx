import { useId, useState } from 'react';
import { useTranslation } from '#app/lib/use-translation.ts';
import { fillTemplate, type Template, type TemplateVariable } from '#contract/admin.ts';

/** Alt+T (by the key's code, as Alt changes the letter on a Mac) opens the templates from anywhere. */
export function isTemplateShortcut(event: KeyboardEvent): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyT';
}

/**
 * The reply templates of the conversation's site and language, as a filterable list under the reply
 * box: type to narrow, ↑/↓ to choose, Enter to insert (filled in for this member), Esc to close.
 */
export function TemplatePicker({
  templates,
  values,
  onPick,
  onClose,
}: {
  templates: Template[];
  values: Record<TemplateVariable, string>;
  onPick: (text: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const needle = filter.trim().toLowerCase();
  const shown = templates.filter(
    (template) =>
      needle === '' ||
      template.title.toLowerCase().includes(needle) ||
      template.text.toLowerCase().includes(needle),
  );
  const current = Math.min(active, Math.max(0, shown.length - 1));
  return (
    <div className="card shadow-sm mb-2" role="dialog" aria-label={t('workbench:templates.pickerLabel')}>
      <div className="card-body p-2">
        <input
          type="search"
          className="form-control form-control-sm mb-2"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-activedescendant={shown.length > 0 ? `${id}-${current}` : undefined}
          aria-label={t('workbench:templates.filter')}
          placeholder={t('workbench:templates.filter')}
          // biome-ignore lint/a11y/noAutofocus: the picker opens by a shortcut to be typed into at once
          autoFocus
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            setActive(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setActive((current + step + shown.length) % Math.max(1, shown.length));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              const chosen = shown[current];
              if (chosen) onPick(chosen.text);
            } else if (event.key === 'Escape') {
              // Closes the picker only: Esc on the page would leave the conversation.
              event.preventDefault();
              onClose();
            }
          }}
        />
        {shown.length === 0 ? (
          <p className="small text-body-secondary mb-0">{t('workbench:templates.none')}</p>
        ) : (
          <div
            id={`${id}-list`}
            role="listbox"
            aria-label={t('workbench:templates.pickerLabel')}
            className="list-group list-group-flush small"
            style={{ maxHeight: '14rem', overflowY: 'auto' }}
          >
            {shown.map((template, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the filter field above carries the keyboard (combobox)
              <div
                key={template.id}
                id={`${id}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === current}
                className={`list-group-item list-group-item-action px-2 py-1${index === current ? ' active' : ''}`}
                style={{ cursor: 'pointer' }}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => onPick(template.text)}
              >
                <strong>{template.title}</strong>
                <div className={index === current ? '' : 'text-body-secondary'}>
                  {fillTemplate(template.text, values)}
                </div>
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

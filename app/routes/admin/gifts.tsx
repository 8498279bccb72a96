import { redirect } from 'react-router';
import { formError } from '#app/lib/actions.server.ts';
import { giftName } from '#app/lib/gift-name.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminGift } from '#contract/admin-money.ts';
import { localeNames, locales } from '#contract/locales.ts';
import type { Route } from './+types/gifts';
import { AdminCheckbox, AdminImageUpload, AdminInput, defined, text, whole } from './backoffice-form.tsx';
import { loadAdminList } from './crud.server.ts';
import { actionErrors } from './crud-editor.tsx';
import { AdminCrudPage } from './crud-page.tsx';
import { bySite, offerSites, siteOfForm } from './offer-site.server.ts';
import { OfferSiteCell, OfferSiteFilterForm, OfferSiteSelect } from './offer-site.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const api = staffApi(context.api);
  const [list, { sites, siteFilter }] = await Promise.all([
    loadAdminList(request, api('GET /api/admin/gifts.php'), (data) => data.gifts),
    offerSites(api, request),
  ]);
  return { ...list, items: bySite(list.items, siteFilter), sites, siteFilter };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const id = whole(form, 'id');
  const credits = text(form, 'credits')?.trim();
  const body = defined({
    site: siteOfForm(form),
    slug: text(form, 'slug'),
    names: Object.fromEntries(locales.map((locale) => [locale, text(form, `names.${locale}`) ?? ''])),
    credits: credits === undefined ? undefined : credits === '' ? null : whole(form, 'credits'),
    position: whole(form, 'position'),
    active: form.has('active'),
  });
  const api = staffApi(context.api);
  const result =
    id === undefined
      ? await api('POST /api/admin/gifts.php', { body })
      : await api('PUT /api/admin/gifts.php', { body: { ...body, id } });
  if (!result.ok) return formError(result);
  // A new gift opens in the editor, where its image is uploaded.
  if (id === undefined) throw redirect(`/admin/gifts?edit=${result.data.gift.id}&saved=1`);
  return { savedGift: result.data.gift };
}

/** The image of a gift: uploaded here, re-encoded by the server's photo pipeline (no metadata kept). */
function GiftImage({ gift }: { gift: AdminGift }) {
  const { t } = useTranslation();
  return (
    <AdminImageUpload
      label={t('admin:gifts.image')}
      uploadUrl={`/api/admin/gift-image.php?gift=${gift.id}`}
      preview={
        gift.image ? (
          <img src={gift.image} alt="" width={64} height={64} className="rounded border" />
        ) : (
          <span className="text-body-secondary small">{t('admin:gifts.noImage')}</span>
        )
      }
      inputLabel={t('admin:gifts.uploadImage')}
      failedText={t('admin:gifts.imageFailed')}
    />
  );
}

/** Gifts (admins): names in every language, image, own price or the site's, order, on sale or not. */
export default function Gifts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const { items: gifts, edit, sites, siteFilter } = loaderData;
  const errors = actionErrors(actionData);
  const saved = (actionData && 'savedGift' in actionData) || loaderData.created;
  return (
    <AdminCrudPage
      path="/admin/gifts"
      heading={t('admin:gifts.heading')}
      beforeList={<OfferSiteFilterForm path="/admin/gifts" sites={sites} filter={siteFilter} />}
      items={gifts}
      rowClassName={(gift) => (gift.active ? undefined : 'text-body-secondary')}
      columns={[
        {
          header: <span className="visually-hidden">{t('admin:gifts.image')}</span>,
          cell: (gift) =>
            gift.image && <img src={gift.image} alt="" width={40} height={40} className="rounded" />,
        },
        {
          header: t('admin:gifts.name'),
          cell: (gift) => (
            <>
              {giftName(t, locale, gift)}
              <span className="small text-body-secondary"> {gift.slug}</span>
              {!gift.active && (
                <span className="badge text-bg-secondary ms-2">{t('admin:bundles.inactive')}</span>
              )}
            </>
          ),
        },
        { header: t('admin:offerSite.label'), cell: (gift) => <OfferSiteCell site={gift.site} /> },
        {
          header: t('admin:gifts.cost'),
          cell: (gift) =>
            gift.credits === null
              ? t('admin:gifts.siteCost')
              : t('admin:gifts.credits', { count: gift.credits }),
        },
        { header: t('admin:gifts.sent'), cell: (gift) => gift.sent },
      ]}
      editor={{
        edit,
        addLabel: t('admin:gifts.add'),
        editHeading: edit ? t('admin:gifts.editHeading', { slug: edit.slug }) : '',
        saved: saved ? t('admin:money.saved') : null,
        errors,
        before: edit ? (
          <GiftImage gift={edit} />
        ) : (
          <p className="small text-body-secondary">{t('admin:gifts.imageAfter')}</p>
        ),
      }}
    >
      <OfferSiteSelect sites={sites} value={edit?.site} errors={errors} hint={t('admin:offerSite.hint')} />
      <AdminInput
        name="slug"
        label={t('admin:gifts.slug')}
        hint={t('admin:gifts.slugHint')}
        errors={errors}
        defaultValue={edit?.slug}
        required
      />
      <fieldset className="mb-2">
        <legend className="h6">{t('admin:gifts.names')}</legend>
        <p className="small text-body-secondary">{t('admin:gifts.namesHint')}</p>
        <div className="row g-2">
          {locales.map((language) => (
            <div className="col-6" key={language}>
              <AdminInput
                name={`names.${language}`}
                label={localeNames[language]}
                errors={errors}
                defaultValue={edit?.names[language]}
                required={language === 'en' && !edit}
              />
            </div>
          ))}
        </div>
      </fieldset>
      <div className="row g-2">
        <div className="col-6">
          <AdminInput
            name="credits"
            type="number"
            inputMode="numeric"
            label={t('admin:gifts.cost')}
            hint={t('admin:gifts.costHint')}
            errors={errors}
            defaultValue={edit?.credits}
          />
        </div>
        <div className="col-6">
          <AdminInput
            name="position"
            type="number"
            inputMode="numeric"
            label={t('admin:money.position')}
            errors={errors}
            defaultValue={edit?.position ?? 0}
          />
        </div>
      </div>
      <div className="mb-3">
        <AdminCheckbox name="active" label={t('admin:gifts.active')} defaultChecked={edit?.active ?? false} />
        {errors?.body.fields?.image && (
          <div className="invalid-feedback d-block" data-field-error="image">
            {t('admin:editorError.image_required')}
          </div>
        )}
      </div>
    </AdminCrudPage>
  );
}

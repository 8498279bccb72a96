import { Form, Link, redirect, useNavigation } from 'react-router';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminGift } from '#contract/admin-money.ts';
import { localeNames, locales } from '#contract/locales.ts';
import { formError } from '../../lib/actions.server.ts';
import { giftName } from '../../lib/gift-name.ts';
import { useRootData } from '../../lib/root-data.ts';
import type { Route } from './+types/gifts';
import { AdminCheckbox, AdminImageUpload, AdminInput, defined, text, whole } from './backoffice-form.tsx';

export async function loader({ context, request }: Route.LoaderArgs) {
  const result = await context.api<{ gifts: AdminGift[] }>('/api/admin/gifts.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  const url = new URL(request.url);
  const edit = Number(url.searchParams.get('edit')) || null;
  return {
    gifts: result.data.gifts,
    edit: result.data.gifts.find((gift) => gift.id === edit) ?? null,
    created: url.searchParams.get('saved') === '1',
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const id = whole(form, 'id');
  const credits = text(form, 'credits')?.trim();
  const body = defined({
    slug: text(form, 'slug'),
    names: Object.fromEntries(locales.map((locale) => [locale, text(form, `names.${locale}`) ?? ''])),
    credits: credits === undefined ? undefined : credits === '' ? null : whole(form, 'credits'),
    position: whole(form, 'position'),
    active: form.has('active'),
  });
  const result = await context.api<{ gift: AdminGift }>('/api/admin/gifts.php', {
    method: id === undefined ? 'POST' : 'PUT',
    body: id === undefined ? body : { ...body, id },
  });
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
  const navigation = useNavigation();
  const { gifts, edit } = loaderData;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const saved = (actionData && 'savedGift' in actionData) || loaderData.created;
  return (
    <div className="row g-3">
      <div className="col-12 col-xl-7">
        <h1 className="h4">{t('admin:gifts.heading')}</h1>
        <div className="table-responsive">
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th>
                  <span className="visually-hidden">{t('admin:gifts.image')}</span>
                </th>
                <th>{t('admin:gifts.name')}</th>
                <th>{t('admin:gifts.cost')}</th>
                <th>{t('admin:gifts.sent')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {gifts.map((gift) => (
                <tr key={gift.id} className={gift.active ? undefined : 'text-body-secondary'}>
                  <td>
                    {gift.image && <img src={gift.image} alt="" width={40} height={40} className="rounded" />}
                  </td>
                  <td>
                    {giftName(t, locale, gift)}
                    <span className="small text-body-secondary"> {gift.slug}</span>
                    {!gift.active && (
                      <span className="badge text-bg-secondary ms-2">{t('admin:bundles.inactive')}</span>
                    )}
                  </td>
                  <td>
                    {gift.credits === null
                      ? t('admin:gifts.siteCost')
                      : t('admin:gifts.credits', { count: gift.credits })}
                  </td>
                  <td>{gift.sent}</td>
                  <td>
                    <Link to={`/admin/gifts?edit=${gift.id}`} className="btn btn-outline-primary btn-sm">
                      {t('admin:sites.edit')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <div className="col-12 col-xl-5">
        <h2 className="h5">
          {edit ? t('admin:gifts.editHeading', { slug: edit.slug }) : t('admin:gifts.add')}
        </h2>
        {saved && !errors && (
          <div className="alert alert-success" role="status">
            {t('admin:money.saved')}
          </div>
        )}
        {errors && (
          <div className="alert alert-danger" role="alert">
            {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
          </div>
        )}
        {edit && <GiftImage gift={edit} />}
        {!edit && <p className="small text-body-secondary">{t('admin:gifts.imageAfter')}</p>}
        <Form method="post" noValidate key={edit?.id ?? 'new'}>
          {edit && <input type="hidden" name="id" value={edit.id} />}
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
            <AdminCheckbox
              name="active"
              label={t('admin:gifts.active')}
              defaultChecked={edit?.active ?? false}
            />
            {errors?.body.fields?.image && (
              <div className="invalid-feedback d-block" data-field-error="image">
                {t('admin:editorError.image_required')}
              </div>
            )}
          </div>
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {edit ? t('admin:editor.save') : t('admin:gifts.add')}
          </button>
        </Form>
      </div>
    </div>
  );
}

import { type RefObject, useEffect, useRef, useState } from 'react';
import { CheckCircleFill, PlusLg } from 'react-bootstrap-icons';
import { Form, useNavigation } from 'react-router';
import { FormAlert, FormField } from '#app/components/forms/form-field.tsx';
import { api } from '#app/lib/api.ts';
import { countryName } from '#app/lib/countries.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Region } from '#contract/endpoints/regions.ts';
import {
  bodyTypeOptions,
  eyeColourOptions,
  hairOptions,
  interestOptions,
  type OwnProfile,
  relationshipStatusOptions,
  tattooOptions,
} from '#contract/profiles.ts';

type LocationState = 'idle' | 'finding' | 'denied' | 'unsupported' | 'failed';

function OptionSelect({
  name,
  label,
  options,
  value,
}: {
  name: string;
  label: string;
  options: readonly string[];
  value: string | null;
}) {
  const { t } = useTranslation();
  const prefix =
    { body_type: 'bodyType', eye_colour: 'eyeColour', relationship_status: 'relationshipStatus' }[name] ??
    name;
  return (
    <div className="col-sm-6 mb-3">
      <label htmlFor={`profile-${name}`} className="form-label">
        {label}
      </label>
      <select id={`profile-${name}`} name={name} className="form-select" defaultValue={value ?? ''}>
        <option value="">{t('profile:notSaid')}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {t(`profile:${prefix}.${option}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The writing prompts under an empty "About me", as Hinge and Bumble offer them. */
export const aboutPrompts = ['sunday', 'lookingFor', 'winMeOver', 'friendsSay'] as const;

/** The start of `prompt` joined to what the field holds: on a line of its own after any text. */
export function withPrompt(text: string, prompt: string): string {
  const kept = text.trimEnd();
  return `${kept}${kept ? '\n' : ''}${prompt} `;
}

/**
 * Chips under the empty "About me": a tap writes the prompt's start into the field (after what is
 * there, on a new line) and puts the cursor behind it, so the member only has to finish the line.
 */
function AboutPrompts({ field }: { field: RefObject<HTMLTextAreaElement | null> }) {
  const { t } = useTranslation();
  const insert = (prompt: string) => {
    const textarea = field.current;
    if (!textarea) return;
    const text = withPrompt(textarea.value, prompt).slice(
      0,
      textarea.maxLength > 0 ? textarea.maxLength : undefined,
    );
    textarea.value = text;
    textarea.focus();
    textarea.setSelectionRange(text.length, text.length);
  };
  return (
    <fieldset className="mt-2" data-testid="about-prompts">
      <legend className="small text-body-secondary mb-2 fw-normal">{t('profile:aboutPrompts.hint')}</legend>
      <div className="d-flex flex-wrap gap-2">
        {aboutPrompts.map((key) => {
          const prompt = t(`profile:aboutPrompts.${key}`);
          return (
            <button
              key={key}
              type="button"
              className="btn btn-sm btn-light border rounded-pill about-prompt"
              onClick={() => insert(prompt)}
            >
              <PlusLg aria-hidden="true" className="me-1" size={12} />
              {prompt}…
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The profile form: about and interests first, then the details, country and region (with "use my location"). */
export function ProfileEditor({
  profile,
  regions: initialRegions,
  errors,
  saved,
}: {
  profile: OwnProfile;
  regions: Region[];
  errors?: FormErrors | undefined;
  saved: boolean;
}) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  const navigation = useNavigation();
  const [country, setCountry] = useState(profile.country);
  const [region, setRegion] = useState(profile.countryregion ?? '');
  const [regions, setRegions] = useState(initialRegions);
  const [location, setLocation] = useState<LocationState>('idle');
  const about = useRef<HTMLTextAreaElement>(null);

  const loadRegions = async (code: string) => {
    const answer = await api('GET /api/regions.php', { query: { country: code } });
    setRegions(answer.ok ? answer.data.regions : []);
  };

  const useMyLocation = () => {
    if (!('geolocation' in navigator)) return setLocation('unsupported');
    setLocation('finding');
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        try {
          const answer = await api('GET /api/geocode.php', {
            query: { lat: position.coords.latitude, lon: position.coords.longitude },
          });
          if (!answer.ok) return setLocation('failed');
          const found = answer.data;
          if (!found.country || !settings.countries.includes(found.country)) return setLocation('failed');
          setCountry(found.country);
          await loadRegions(found.country);
          setRegion(found.countryregion ?? '');
          setLocation('idle');
        } catch (error) {
          reportCaught('finding the location', error);
          setLocation('failed');
        }
      },
      (error) => setLocation(error.code === error.PERMISSION_DENIED ? 'denied' : 'failed'),
      { maximumAge: 3_600_000, timeout: 15_000 },
    );
  };

  return (
    <section className="card mb-4">
      <div className="card-body">
        <h2 className="h5 card-title">{t('profile:edit.heading')}</h2>
        {saved && <SavedToast text={t('profile:edit.saved')} />}
        <FormAlert errors={errors} />
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <h3 className="h6 text-uppercase text-body-secondary mt-2 mb-3">{t('discover:editor.story')}</h3>
          <div className="mb-3">
            <label htmlFor="profile-about" className="form-label">
              {t('profile:field.about')}
            </label>
            <textarea
              ref={about}
              id="profile-about"
              name="about"
              className="form-control"
              rows={4}
              maxLength={2000}
              defaultValue={profile.about ?? ''}
            />
            {!profile.about?.trim() && <AboutPrompts field={about} />}
          </div>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t('profile:field.interests')}</legend>
            <div className="d-flex flex-wrap gap-2">
              {interestOptions.map((interest) => (
                <div key={interest}>
                  <input
                    type="checkbox"
                    className="btn-check"
                    id={`interest-${interest}`}
                    name="interests"
                    value={interest}
                    defaultChecked={profile.interests.includes(interest)}
                  />
                  <label className="btn btn-sm btn-outline-primary" htmlFor={`interest-${interest}`}>
                    {t(`profile:interest.${interest}`)}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          <h3 className="h6 text-uppercase text-body-secondary mt-3 mb-3">{t('discover:editor.you')}</h3>
          <FormField
            name="name"
            label={t('profile:field.name')}
            defaultValue={profile.name}
            required
            minLength={2}
            maxLength={30}
            errors={errors}
          />
          <div className="row">
            <OptionSelect
              name="gender"
              label={t('profile:field.gender')}
              options={['male', 'female']}
              value={profile.gender}
            />
            <div className="col-sm-6 mb-3">
              <label htmlFor="profile-seeking" className="form-label">
                {t('profile:field.seeking')}
              </label>
              <select
                id="profile-seeking"
                name="seeking"
                className="form-select"
                defaultValue={profile.seeking ?? ''}
              >
                <option value="">{t('profile:notSaid')}</option>
                {(['female', 'male', 'both'] as const).map((option) => (
                  <option key={option} value={option}>
                    {t(`profile:seeking.${option}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <h3 className="h6 text-uppercase text-body-secondary mt-3 mb-3">{t('discover:editor.looks')}</h3>
          <div className="row">
            <OptionSelect
              name="body_type"
              label={t('profile:field.bodyType')}
              options={bodyTypeOptions}
              value={profile.body_type}
            />
            <OptionSelect
              name="hair"
              label={t('profile:field.hair')}
              options={hairOptions}
              value={profile.hair}
            />
            <OptionSelect
              name="eye_colour"
              label={t('profile:field.eyeColour')}
              options={eyeColourOptions}
              value={profile.eye_colour}
            />
            <OptionSelect
              name="relationship_status"
              label={t('profile:field.relationshipStatus')}
              options={relationshipStatusOptions}
              value={profile.relationship_status}
            />
            <OptionSelect
              name="tattoos"
              label={t('profile:field.tattoos')}
              options={tattooOptions}
              value={profile.tattoos}
            />
          </div>
          <h3 className="h6 text-uppercase text-body-secondary mt-3 mb-3">{t('discover:editor.where')}</h3>
          <div className="row align-items-end">
            <div className="col-sm-5 mb-3">
              <label htmlFor="profile-country" className="form-label">
                {t('profile:field.country')}
              </label>
              <select
                id="profile-country"
                name="country"
                className="form-select"
                value={country}
                onChange={(event) => {
                  setCountry(event.target.value);
                  setRegion('');
                  void loadRegions(event.target.value);
                }}
              >
                {settings.countries.map((code) => (
                  <option key={code} value={code}>
                    {countryName(code, locale)}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-sm-4 mb-3">
              <label htmlFor="profile-region" className="form-label">
                {t('profile:field.region')}
              </label>
              <select
                id="profile-region"
                name="countryregion"
                className="form-select"
                value={region}
                onChange={(event) => setRegion(event.target.value)}
              >
                <option value="">{t('profile:notSaid')}</option>
                {regions.map((option) => (
                  <option key={option.code} value={option.code}>
                    {option.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-sm-3 mb-3 d-grid">
              <button
                type="button"
                className="btn btn-outline-secondary"
                onClick={useMyLocation}
                disabled={location === 'finding'}
              >
                {location === 'finding' ? t('profile:location.finding') : t('profile:location.use')}
              </button>
            </div>
          </div>
          {location !== 'idle' && location !== 'finding' && (
            <p className="small text-body-secondary" role="status">
              {t(`profile:location.${location}`)}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
            {t('profile:edit.save')}
          </button>
        </Form>
      </div>
    </section>
  );
}

/** "Saved" where the member is looking: a toast at the bottom that fades after a few seconds. */
function SavedToast({ text }: { text: string }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setShown(false), 4000);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <div className="undo-toast" role="status" data-testid="saved-toast">
      <CheckCircleFill aria-hidden="true" className="text-success" />
      <span className="pe-2">{text}</span>
    </div>
  );
}

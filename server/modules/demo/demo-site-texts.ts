import type { SiteTexts } from '#server/db/schema/sites.ts';

type Texts = Record<string, [indexTitle: string, description: string]>;

function siteTexts(name: string, texts: Texts): SiteTexts {
  return Object.fromEntries(
    Object.entries(texts).map(([locale, [indexTitle, description]]) => [
      locale,
      { index_title: indexTitle, description, manifest_name: name },
    ]),
  );
}

/** The demo sites' titles and descriptions in all 11 languages (the fictional wording uses the catalogs). */
export const demoSiteTexts: Record<string, SiteTexts> = {
  localhost: siteTexts('Amora', {
    en: [
      'Amora – meet singles near you',
      'Amora is the place to meet, chat and flirt with singles near you.',
    ],
    nl: [
      'Amora – ontmoet singles bij jou in de buurt',
      'Op Amora leer je singles bij jou in de buurt kennen, chat je en flirt je.',
    ],
    de: [
      'Amora – Singles in deiner Nähe kennenlernen',
      'Auf Amora lernst du Singles in deiner Nähe kennen, chattest und flirtest.',
    ],
    it: ['Amora – conosci single vicino a te', 'Su Amora conosci single vicino a te, chatti e flirti.'],
    fr: [
      'Amora – rencontrez des célibataires près de chez vous',
      'Sur Amora, rencontrez des célibataires près de chez vous, discutez et flirtez.',
    ],
    es: [
      'Amora – conoce a solteros cerca de ti',
      'En Amora conoces a solteros cerca de ti, chateas y ligas.',
    ],
    pl: [
      'Amora – poznaj singli w swojej okolicy',
      'W serwisie Amora poznasz singli z okolicy, porozmawiasz z nimi i poflirtujesz.',
    ],
    da: ['Amora – mød singler i nærheden', 'På Amora møder du singler i nærheden, chatter og flirter.'],
    fi: ['Amora – tapaa sinkkuja läheltäsi', 'Amorassa tapaat sinkkuja läheltäsi, juttelet ja flirttailet.'],
    no: ['Amora – møt singler i nærheten', 'På Amora møter du singler i nærheten, chatter og flørter.'],
    sv: ['Amora – träffa singlar nära dig', 'På Amora träffar du singlar nära dig, chattar och flörtar.'],
  }),
  'nl.localhost': siteTexts('Flirtpunt', {
    en: ['Flirtpunt – flirting and dating near you', 'On Flirtpunt you meet singles near you.'],
    nl: [
      'Flirtpunt – flirten en daten bij jou in de buurt',
      'Op Flirtpunt ontmoet je singles bij jou in de buurt.',
    ],
    de: [
      'Flirtpunt – flirten und daten in deiner Nähe',
      'Auf Flirtpunt lernst du Singles in deiner Nähe kennen.',
    ],
    it: ['Flirtpunt – flirt e incontri vicino a te', 'Su Flirtpunt conosci single vicino a te.'],
    fr: [
      'Flirtpunt – flirt et rencontres près de chez vous',
      'Sur Flirtpunt, rencontrez des célibataires près de chez vous.',
    ],
    es: ['Flirtpunt – ligar y citas cerca de ti', 'En Flirtpunt conoces a solteros cerca de ti.'],
    pl: ['Flirtpunt – flirt i randki w twojej okolicy', 'W serwisie Flirtpunt poznasz singli z okolicy.'],
    da: ['Flirtpunt – flirt og dating i nærheden', 'På Flirtpunt møder du singler i nærheden.'],
    fi: ['Flirtpunt – flirttailua ja treffejä läheltäsi', 'Flirtpunt-palvelussa tapaat sinkkuja läheltäsi.'],
    no: ['Flirtpunt – flørt og dating i nærheten', 'På Flirtpunt møter du singler i nærheten.'],
    sv: ['Flirtpunt – flirt och dejting nära dig', 'På Flirtpunt träffar du singlar nära dig.'],
  }),
};

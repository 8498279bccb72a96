import type { interestOptions } from '#contract/profiles.ts';
import type { demoNames } from './demo-names.ts';

type Language = keyof typeof demoNames;
type Interest = (typeof interestOptions)[number];

/** Interests as they read inside a sentence ("I love …"), per language of the demo's countries. */
const interestPhrases: Record<Language, Record<Interest, string>> = {
  en: {
    travelling: 'weekend trips to places I have never been',
    music: 'live music in small venues',
    sports: 'a good match, watching or playing',
    wine: 'a glass of wine on a terrace',
    cooking: 'cooking for friends',
    movies: 'old films on a rainy Sunday',
    reading: 'a thick novel and strong coffee',
    nature: 'long walks along the coast',
    dancing: 'dancing until the lights come on',
    fitness: 'an early run before work',
    art: 'wandering through galleries',
    gaming: 'a board game night that gets competitive',
    romance: 'candlelit dinners, yes really',
    cuddling: 'lazy mornings on the sofa',
    adventure: 'saying yes to a spontaneous plan',
    roleplay: 'a bit of playful mischief',
  },
  nl: {
    travelling: 'weekendjes weg naar plekken waar ik nog nooit was',
    music: 'livemuziek in kleine zaaltjes',
    sports: 'een goede wedstrijd, kijken of zelf spelen',
    wine: 'een glas wijn op een terras',
    cooking: 'koken voor vrienden',
    movies: 'oude films op een regenachtige zondag',
    reading: 'een dikke roman en sterke koffie',
    nature: 'lange wandelingen langs het strand',
    dancing: 'dansen tot de lichten aangaan',
    fitness: 'een vroeg rondje hardlopen',
    art: 'rondstruinen in musea',
    gaming: 'spelletjesavonden die uit de hand lopen',
    romance: 'diners bij kaarslicht, echt waar',
    cuddling: 'luie ochtenden op de bank',
    adventure: 'ja zeggen tegen een spontaan plan',
    roleplay: 'een beetje speelse ondeugd',
  },
  de: {
    travelling: 'Kurztrips an Orte, an denen ich noch nie war',
    music: 'Livemusik in kleinen Clubs',
    sports: 'ein gutes Spiel, ob zuschauen oder selbst spielen',
    wine: 'ein Glas Wein auf der Terrasse',
    cooking: 'für Freunde kochen',
    movies: 'alte Filme an einem verregneten Sonntag',
    reading: 'einen dicken Roman und starken Kaffee',
    nature: 'lange Spaziergänge am Wasser',
    dancing: 'tanzen, bis das Licht angeht',
    fitness: 'eine Runde Joggen am frühen Morgen',
    art: 'durch Galerien schlendern',
    gaming: 'Spieleabende, die ehrgeizig werden',
    romance: 'Abendessen bei Kerzenlicht, wirklich',
    cuddling: 'faule Morgen auf dem Sofa',
    adventure: 'spontane Pläne',
    roleplay: 'ein bisschen verspielten Unfug',
  },
};

const openers: Record<Language, string[]> = {
  en: [
    'Easy-going, curious and quick to laugh.',
    'New in town and keen to meet people who like to talk.',
    'Friends describe me as warm, a little chaotic and always on time for dinner.',
    'Looking for someone to share the small things with.',
    'Honest, relaxed and not great at small talk, so ask me something real.',
  ],
  nl: [
    'Relaxed, nieuwsgierig en snel aan het lachen.',
    'Nieuw in de buurt en benieuwd naar mensen die graag kletsen.',
    'Vrienden noemen me warm, een tikje chaotisch en altijd op tijd voor het eten.',
    'Op zoek naar iemand om de kleine dingen mee te delen.',
    'Eerlijk, ontspannen en slecht in smalltalk, dus vraag me iets echts.',
  ],
  de: [
    'Entspannt, neugierig und schnell zum Lachen zu bringen.',
    'Neu in der Gegend und gespannt auf Menschen, die gern reden.',
    'Freunde sagen, ich sei herzlich, ein bisschen chaotisch und immer pünktlich zum Essen.',
    'Auf der Suche nach jemandem, mit dem ich die kleinen Dinge teilen kann.',
    'Ehrlich, gelassen und schlecht im Small Talk, also frag mich etwas Echtes.',
  ],
};

const loves: Record<Language, (first: string, second: string | undefined) => string> = {
  en: (first, second) => `I love ${first}${second ? ` and ${second}` : ''}.`,
  nl: (first, second) => `Ik hou van ${first}${second ? ` en ${second}` : ''}.`,
  de: (first, second) => `Ich liebe ${first}${second ? ` und ${second}` : ''}.`,
};

const closers: Record<Language, string[]> = {
  en: [
    'Say hi if you know a good place for coffee.',
    'Message me with your best travel story.',
    'If you make me laugh, the first drink is on me.',
    'Not here for games, just a good conversation to start with.',
  ],
  nl: [
    'Zeg hoi als je een goed koffietentje weet.',
    'Stuur me je beste reisverhaal.',
    'Als je me aan het lachen maakt, trakteer ik op het eerste drankje.',
    'Geen spelletjes, gewoon eerst een goed gesprek.',
  ],
  de: [
    'Schreib mir, wenn du ein gutes Café kennst.',
    'Erzähl mir deine beste Reisegeschichte.',
    'Wenn du mich zum Lachen bringst, geht der erste Drink auf mich.',
    'Keine Spielchen, erst einmal ein gutes Gespräch.',
  ],
};

/** An "about me" for a fictional demo member, in the language of their country, from their interests. */
export function demoAbout(language: Language, interests: readonly Interest[], random: () => number): string {
  const pickOne = (items: string[]) => items[Math.floor(random() * items.length)]!;
  const [first, second] = interests;
  const phrases = interestPhrases[language];
  return [
    pickOne(openers[language]),
    first ? loves[language](phrases[first], second ? phrases[second] : undefined) : '',
    pickOne(closers[language]),
  ]
    .filter(Boolean)
    .join(' ');
}

/** Whom a demo member seeks follows from their gender and sexuality. */
export function demoSeeking(
  gender: 'male' | 'female',
  sexuality: 'hetero' | 'gay' | 'lesbian' | 'bi',
): 'male' | 'female' | 'both' {
  if (sexuality === 'bi') return 'both';
  if (sexuality === 'hetero') return gender === 'male' ? 'female' : 'male';
  return gender;
}

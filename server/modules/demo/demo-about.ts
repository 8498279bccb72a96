import { type Locale, locales } from '#contract/locales.ts';
import type { interestOptions } from '#contract/profiles.ts';

type Language = Locale;
type Interest = (typeof interestOptions)[number];

/**
 * Interests as they read inside a sentence ("I love …"), in every site language: a demo bio is
 * written in all of them, so a reader sees it in their own (profiles/localized-about.ts). Each
 * language's phrases fit its own "I love" (French and Italian noun phrases, Spanish infinitives,
 * Polish accusative, Finnish partitive) and none needs the writer's gender.
 */
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
  fr: {
    travelling: 'les escapades du week-end vers des coins inconnus',
    music: 'les concerts dans les petites salles',
    sports: 'un bon match, devant l’écran ou sur le terrain',
    wine: 'un verre de vin en terrasse',
    cooking: 'les dîners que je cuisine pour mes amis',
    movies: 'les vieux films un dimanche de pluie',
    reading: 'un gros roman avec un café bien serré',
    nature: 'les longues balades au bord de la mer',
    dancing: 'les soirées où l’on danse jusqu’à la fermeture',
    fitness: 'un petit footing avant le travail',
    art: 'les après-midi à flâner dans les galeries',
    gaming: 'les soirées jeux de société qui tournent à la compétition',
    romance: 'les dîners aux chandelles, oui, vraiment',
    cuddling: 'les matins paresseux sur le canapé',
    adventure: 'les plans improvisés à la dernière minute',
    roleplay: 'un brin de malice',
  },
  es: {
    travelling: 'escaparme el fin de semana a sitios que no conozco',
    music: 'escuchar música en directo en salas pequeñas',
    sports: 'ver un buen partido o jugarlo',
    wine: 'tomar un vino en una terraza',
    cooking: 'cocinar para mis amigos',
    movies: 'ver cine clásico un domingo de lluvia',
    reading: 'perderme en una buena novela con un café bien cargado',
    nature: 'dar largos paseos junto al mar',
    dancing: 'bailar hasta que encienden las luces',
    fitness: 'salir a correr temprano antes del trabajo',
    art: 'perderme por galerías y museos',
    gaming: 'montar noches de juegos de mesa que se vuelven muy competitivas',
    romance: 'cenar a la luz de las velas, sí, en serio',
    cuddling: 'remolonear en el sofá por la mañana',
    adventure: 'apuntarme a cualquier plan improvisado',
    roleplay: 'hacer alguna que otra travesura',
  },
  it: {
    travelling: 'le gite del weekend in posti nuovi',
    music: 'la musica dal vivo nei piccoli locali',
    sports: 'una bella partita, da guardare o da giocare',
    wine: 'un bicchiere di vino in terrazza',
    cooking: 'cucinare per gli amici',
    movies: 'i vecchi film di una domenica di pioggia',
    reading: 'un bel romanzo corposo e un caffè forte',
    nature: 'le lunghe passeggiate in riva al mare',
    dancing: 'ballare finché non accendono le luci',
    fitness: 'una corsa di prima mattina prima del lavoro',
    art: 'girare per gallerie e mostre',
    gaming: 'le serate di giochi da tavolo che diventano sfide vere',
    romance: 'le cene a lume di candela, sì, davvero',
    cuddling: 'le mattine pigre sul divano',
    adventure: 'dire di sì a un programma improvvisato',
    roleplay: 'un pizzico di malizia',
  },
  pl: {
    travelling: 'weekendowe wypady w miejsca, których jeszcze nie znam',
    music: 'muzykę na żywo w małych klubach',
    sports: 'dobry mecz, w telewizji albo na boisku',
    wine: 'lampkę wina na tarasie',
    cooking: 'gotowanie dla przyjaciół',
    movies: 'stare filmy w deszczową niedzielę',
    reading: 'grubą powieść i mocną kawę',
    nature: 'długie spacery brzegiem morza',
    dancing: 'taniec do białego rana',
    fitness: 'poranne bieganie przed pracą',
    art: 'włóczenie się po galeriach',
    gaming: 'wieczory z planszówkami, które kończą się zaciętą rywalizacją',
    romance: 'kolacje przy świecach, serio',
    cuddling: 'leniwe poranki na kanapie',
    adventure: 'spontaniczne plany',
    roleplay: 'odrobinę figlarności',
  },
  da: {
    travelling: 'weekendture til steder, jeg aldrig har været',
    music: 'livemusik på små spillesteder',
    sports: 'en god kamp, både på skærmen og på banen',
    wine: 'et glas vin på en terrasse',
    cooking: 'at lave mad til vennerne',
    movies: 'gamle film på en regnvåd søndag',
    reading: 'en tyk roman og stærk kaffe',
    nature: 'lange gåture langs vandet',
    dancing: 'at danse, til lyset bliver tændt',
    fitness: 'en løbetur tidligt om morgenen',
    art: 'at slentre rundt på gallerier',
    gaming: 'brætspilsaftener, der bliver lidt for konkurrenceprægede',
    romance: 'middage ved levende lys, ja, virkelig',
    cuddling: 'dovne morgener i sofaen',
    adventure: 'at sige ja til spontane planer',
    roleplay: 'lidt legesyg uartighed',
  },
  fi: {
    travelling: 'viikonloppureissuja paikkoihin, joissa en ole vielä käynyt',
    music: 'livemusiikkia pienillä keikkapaikoilla',
    sports: 'hyvää matsia, katsoen tai itse pelaten',
    wine: 'lasillista viiniä terassilla',
    cooking: 'ruoanlaittoa ystäville',
    movies: 'vanhoja elokuvia sateisena sunnuntaina',
    reading: 'paksua romaania ja vahvaa kahvia',
    nature: 'pitkiä kävelyjä rantaa pitkin',
    dancing: 'tanssimista valomerkkiin asti',
    fitness: 'aamulenkkiä ennen töitä',
    art: 'gallerioissa kiertelyä',
    gaming: 'lautapeli-iltoja, jotka äityvät kilpailuksi',
    romance: 'kynttiläillallisia, ihan oikeasti',
    cuddling: 'laiskoja aamuja sohvalla',
    adventure: 'spontaaneja suunnitelmia',
    roleplay: 'pientä leikkisää kujeilua',
  },
  no: {
    travelling: 'helgeturer til steder jeg aldri har vært',
    music: 'livemusikk på små scener',
    sports: 'en god kamp, enten på skjermen eller på banen',
    wine: 'et glass vin på en uteservering',
    cooking: 'å lage mat til venner',
    movies: 'gamle filmer en regnfull søndag',
    reading: 'en tykk roman og sterk kaffe',
    nature: 'lange turer langs sjøen',
    dancing: 'å danse til lysene blir skrudd på',
    fitness: 'en tidlig løpetur før jobb',
    art: 'å rusle rundt på gallerier',
    gaming: 'spillkvelder som blir litt vel konkurranseinnstilte',
    romance: 'middager i levende lys, ja, faktisk',
    cuddling: 'late morgener på sofaen',
    adventure: 'å si ja til spontane planer',
    roleplay: 'litt leken ugagn',
  },
  sv: {
    travelling: 'helgresor till platser där jag aldrig varit',
    music: 'livemusik på små scener',
    sports: 'en bra match, på tv eller på plan',
    wine: 'ett glas vin på en uteservering',
    cooking: 'att laga mat åt vänner',
    movies: 'gamla filmer en regnig söndag',
    reading: 'en tjock roman och starkt kaffe',
    nature: 'långa promenader längs vattnet',
    dancing: 'att dansa tills ljuset tänds',
    fitness: 'en tidig löprunda före jobbet',
    art: 'att strosa runt på gallerier',
    gaming: 'spelkvällar som blir lite väl tävlingsinriktade',
    romance: 'middagar med levande ljus, ja, på riktigt',
    cuddling: 'lata morgnar i soffan',
    adventure: 'att säga ja till spontana planer',
    roleplay: 'lite lekfullt bus',
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
  fr: [
    'Du genre à rire facilement et à poser mille questions.',
    'Depuis peu dans le coin, j’ai envie de rencontrer des gens qui aiment discuter.',
    'Mes amis disent que j’ai le cœur sur la main, un petit côté bordélique, et que je ne rate jamais un dîner.',
    'Je cherche quelqu’un avec qui partager les petites choses.',
    'Franchise, calme et zéro talent pour les banalités : pose-moi une vraie question.',
  ],
  es: [
    'Me río con facilidad y tengo curiosidad por todo.',
    'Hace poco que vivo por aquí y me apetece conocer a gente con ganas de charlar.',
    'Mis amigos dicen que tengo buen corazón, un punto de caos y que nunca llego tarde a una cena.',
    'Busco a alguien con quien compartir las pequeñas cosas.',
    'Con los pies en la tierra y poca paciencia para las charlas de ascensor, así que pregúntame algo de verdad.',
  ],
  it: [
    'Mi basta poco per ridere e ho mille curiosità.',
    'Da poco in zona e con tanta voglia di conoscere gente a cui piace chiacchierare.',
    'Gli amici dicono che ho un gran cuore, un pizzico di disordine e che a cena non arrivo mai in ritardo.',
    'Cerco qualcuno con cui condividere le piccole cose.',
    'Sincerità, calma e zero talento per le chiacchiere di circostanza: chiedimi qualcosa di vero.',
  ],
  pl: [
    'Łatwo mnie rozśmieszyć, a ciekawość świata mam we krwi.',
    'Od niedawna mieszkam w okolicy i chętnie poznam ludzi, którzy lubią rozmawiać.',
    'Znajomi mówią, że mam dobre serce, odrobinę chaosu w sobie i nigdy nie spóźniam się na kolację.',
    'Szukam kogoś, z kim można dzielić małe rzeczy.',
    'Cenię szczerość i spokój, small talk nie jest moją mocną stroną, więc zapytaj mnie o coś prawdziwego.',
  ],
  da: [
    'Afslappet, nysgerrig og hurtig til at grine.',
    'Ny i området og klar til at møde folk, der kan lide at snakke.',
    'Mine venner siger, at jeg er varm, lidt kaotisk og altid til tiden til middag.',
    'På udkig efter en at dele de små ting med.',
    'Ærlig, rolig og elendig til small talk, så spørg mig om noget ægte.',
  ],
  fi: [
    'Rento, utelias ja herkkä nauramaan.',
    'Uusi täällä päin ja innoissani tutustumaan ihmisiin, jotka tykkäävät jutella.',
    'Ystävät sanovat, että olen lämmin, vähän kaoottinen ja aina ajoissa illalliselle.',
    'Etsin jotakuta, jonka kanssa jakaa arjen pienet asiat.',
    'Rehellinen, rauhallinen ja huono small talkissa, joten kysy jotain oikeaa.',
  ],
  no: [
    'Avslappet, nysgjerrig og lett å få til å le.',
    'Ny i byen og gira på å møte folk som liker å prate.',
    'Venner sier at jeg er varm, litt kaotisk og alltid presis til middag.',
    'På jakt etter noen å dele de små tingene med.',
    'Ærlig, rolig og dårlig på småprat, så spør meg om noe ekte.',
  ],
  sv: [
    'Avslappnad, nyfiken och snabb att skratta.',
    'Ny i stan och sugen på att träffa folk som gillar att prata.',
    'Vänner säger att jag är varm, lite kaotisk och alltid i tid till middagen.',
    'Letar efter någon att dela de små sakerna med.',
    'Ärlig, lugn och usel på småprat, så fråga mig något på riktigt.',
  ],
};

const loves: Record<Language, (first: string, second: string | undefined) => string> = {
  en: (first, second) => `I love ${first}${second ? ` and ${second}` : ''}.`,
  nl: (first, second) => `Ik hou van ${first}${second ? ` en ${second}` : ''}.`,
  de: (first, second) => `Ich liebe ${first}${second ? ` und ${second}` : ''}.`,
  fr: (first, second) => `J’adore ${first}${second ? ` et ${second}` : ''}.`,
  es: (first, second) => `Me encanta ${first}${second ? ` y ${second}` : ''}.`,
  it: (first, second) => `Adoro ${first}${second ? ` e ${second}` : ''}.`,
  pl: (first, second) => `Uwielbiam ${first}${second ? ` i ${second}` : ''}.`,
  da: (first, second) => `Jeg elsker ${first}${second ? ` og ${second}` : ''}.`,
  fi: (first, second) => `Rakastan ${first}${second ? ` ja ${second}` : ''}.`,
  no: (first, second) => `Jeg elsker ${first}${second ? ` og ${second}` : ''}.`,
  sv: (first, second) => `Jag älskar ${first}${second ? ` och ${second}` : ''}.`,
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
  fr: [
    'Écris-moi si tu connais un bon café.',
    'Raconte-moi ton plus beau souvenir de voyage.',
    'Si tu me fais rire, le premier verre est pour moi.',
    'Pas là pour jouer : juste une bonne conversation pour commencer.',
  ],
  es: [
    'Escríbeme si conoces un buen sitio para tomar café.',
    'Cuéntame tu mejor historia de viaje.',
    'Si me haces reír, la primera copa corre de mi cuenta.',
    'No busco juegos, solo una buena conversación para empezar.',
  ],
  it: [
    'Scrivimi se conosci un buon posto per un caffè.',
    'Raccontami il tuo viaggio più bello.',
    'Se mi fai ridere, il primo drink lo offro io.',
    'Niente giochetti, solo una bella chiacchierata per cominciare.',
  ],
  pl: [
    'Napisz, jeśli znasz dobrą kawiarnię.',
    'Opowiedz mi swoją najlepszą historię z podróży.',
    'Jeśli mnie rozśmieszysz, pierwszy drink stawiam ja.',
    'Bez gierek, na początek po prostu dobra rozmowa.',
  ],
  da: [
    'Skriv, hvis du kender et godt sted at få kaffe.',
    'Send mig din bedste rejsehistorie.',
    'Får du mig til at grine, giver jeg den første drink.',
    'Ikke her for at spille spil, bare en god snak til at starte med.',
  ],
  fi: [
    'Laita viestiä, jos tiedät hyvän kahvilan.',
    'Kerro paras matkatarinasi.',
    'Jos saat minut nauramaan, tarjoan ensimmäisen drinkin.',
    'En ole täällä pelailemassa, aloitetaan vaikka hyvällä keskustelulla.',
  ],
  no: [
    'Si hei hvis du vet om et godt kaffested.',
    'Send meg din beste reisehistorie.',
    'Får du meg til å le, spanderer jeg den første drinken.',
    'Ikke her for spill, bare en god samtale til å begynne med.',
  ],
  sv: [
    'Säg hej om du vet ett bra ställe för en kaffe.',
    'Skicka mig din bästa resehistoria.',
    'Får du mig att skratta bjuder jag på första drinken.',
    'Inte här för spel, bara ett bra samtal till att börja med.',
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

/**
 * The same bio in every site language: each language drawn with a generator seeded alike, so all
 * of them pick the same opener and closer and say the same thing.
 */
export function demoAboutInEveryLanguage(
  interests: readonly Interest[],
  seed: number,
  random: (seed: number) => () => number,
): Partial<Record<Locale, string>> {
  const texts: Partial<Record<Locale, string>> = {};
  for (const locale of locales) texts[locale] = demoAbout(locale, interests, random(seed));
  return texts;
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

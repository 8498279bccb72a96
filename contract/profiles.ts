/** Option keys of the profile attributes (spec §3); their labels are translated in the profile catalog. */
export const genderOptions = ['male', 'female'] as const;
export const sexualityOptions = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const bodyTypeOptions = ['slim', 'athletic', 'average', 'curvy', 'full'] as const;
export const hairOptions = ['blonde', 'brown', 'black', 'red', 'grey', 'bald'] as const;
export const eyeColourOptions = ['blue', 'brown', 'green', 'grey', 'hazel'] as const;
export const relationshipStatusOptions = [
  'single',
  'divorced',
  'widowed',
  'separated',
  'open_relationship',
] as const;
export const tattooOptions = ['none', 'some', 'many'] as const;
export const interestOptions = [
  'travelling',
  'music',
  'sports',
  'wine',
  'cooking',
  'movies',
  'reading',
  'nature',
  'dancing',
  'fitness',
  'art',
  'gaming',
  'romance',
  'cuddling',
  'adventure',
  'roleplay',
] as const;

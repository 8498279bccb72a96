/** Words that make a friendly username in any of the site's languages (no e-mail, no real name). */
const words = [
  'Sunny',
  'Lucky',
  'Nova',
  'Skye',
  'Maple',
  'River',
  'Luna',
  'Blue',
  'Star',
  'Coral',
  'Amber',
  'Sol',
  'Indigo',
  'Juniper',
  'Robin',
  'Ocean',
];

/** A username suggestion for the lander's optional name field, e.g. "Nova27". */
export function nameSuggestion(random: () => number = Math.random): string {
  const word = words[Math.floor(random() * words.length)] ?? 'Sunny';
  return `${word}${10 + Math.floor(random() * 90)}`;
}

import { messageVariables } from '#contract/engagement.ts';

/** The variables as a text holds them (`{member_name}`), for the hint that names them. */
export const variableNames: Record<string, string> = Object.fromEntries(
  messageVariables.map((name) => [name, `{${name}}`]),
);

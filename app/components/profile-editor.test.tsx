// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OwnProfile } from '#contract/profiles.ts';
import { profileFixture } from '../../tests/setup/profile-fixture.ts';
import { renderShell, testUser } from '../../tests/setup/render-shell.tsx';
import { ProfileEditor, withPrompt } from './profile-editor.tsx';

const own = (about: string | null): OwnProfile => ({
  ...profileFixture(1, { name: 'Robin', fictional: false, about }),
  birthdate: '1990-01-01',
  photos: [],
  photo_limit: 25,
  public_profile: false,
  browse_invisibly: false,
});

afterEach(cleanup);

const editor = (about: string | null) =>
  renderShell(<ProfileEditor profile={own(about)} regions={[]} saved={false} />, { user: testUser() });

describe('writing prompts under an empty "About me"', () => {
  it('offers the prompts; a tap writes the start into the field and focuses it', async () => {
    editor(null);
    const prompts = await screen.findByTestId('about-prompts');
    const chips = within(prompts).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual([
      'A perfect Sunday is…',
      "I'm looking for…",
      "You'll win me over with…",
      'My friends would describe me as…',
    ]);
    const field = screen.getByLabelText<HTMLTextAreaElement>('About me');
    fireEvent.click(chips[0]!);
    expect(field.value).toBe('A perfect Sunday is ');
    expect(document.activeElement).toBe(field);
    expect(field.selectionStart).toBe(field.value.length);
  });

  it('adds a second prompt on a new line after what the member wrote, never replacing it', async () => {
    editor('');
    const field = await screen.findByLabelText<HTMLTextAreaElement>('About me');
    fireEvent.change(field, { target: { value: 'A perfect Sunday is a long walk.  ' } });
    fireEvent.click(await screen.findByRole('button', { name: "I'm looking for…" }));
    expect(field.value).toBe("A perfect Sunday is a long walk.\nI'm looking for ");
  });

  it('stays out of the way of an "About me" already written', async () => {
    editor('Cyclist, cook, bad at karaoke.');
    await screen.findByLabelText('About me');
    expect(screen.queryByTestId('about-prompts')).toBeNull();
  });

  it('joins a prompt to any text on a line of its own', () => {
    expect(withPrompt('', 'I am')).toBe('I am ');
    expect(withPrompt('Hello\n\n', 'I am')).toBe('Hello\nI am ');
  });
});

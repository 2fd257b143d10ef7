import { describe, expect, it } from 'vitest';
import { LANGUAGES, MESSAGES } from '../dashboard/src/i18n.ts';

/**
 * The dashboard's words (CONTRACT §11 `language`, issue 33): every key has its words in English,
 * Afrikaans and isiZulu, with the same `{places}` (a place the translation forgot stays empty on
 * the screen, one it invented is never filled), and Afrikaans and isiZulu are not English left
 * in place. The browser side (every screen in isiZulu, none of these English words on it) is in
 * test/dashboard-phone.browser.test.ts.
 */

const places = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Words that are the same in English and the other language: names, codes, loan words. */
const SAME: Record<'af' | 'zu', readonly string[]> = {
  af: ['nav.webhooks', 'payments.status', 'payouts.bank'],
  zu: [],
};

describe('the dashboard in en, af and zu', () => {
  const en = MESSAGES.en;

  it('has every key in every language, and no other', () => {
    for (const language of LANGUAGES) expect(Object.keys(MESSAGES[language]).sort(), language).toEqual(Object.keys(en).sort());
  });

  it('fills the same {places} in every language, and leaves no text empty', () => {
    for (const language of LANGUAGES) {
      for (const [key, text] of Object.entries(MESSAGES[language])) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(places(text), `${language} ${key}: ${text}`).toEqual(places(en[key as keyof typeof en]));
      }
    }
  });

  it('says in Afrikaans and isiZulu what English says, not the English again', () => {
    for (const language of ['af', 'zu'] as const) {
      const same = Object.keys(en).filter((key) => MESSAGES[language][key as keyof typeof en] === en[key as keyof typeof en]);
      expect(same.sort(), language).toEqual([...SAME[language]].sort());
    }
  });
});

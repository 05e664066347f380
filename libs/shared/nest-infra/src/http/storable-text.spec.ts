import { isStorableText, unstorableTextMessage, unstorableTextPath } from './storable-text';

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, accepts any other text', () => {
    expect(isStorableText('Main wallet 🐳 ü\n\t')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\ud800')).toBe(false);
    expect(isStorableText('x\udc00')).toBe(false);
    expect(isStorableText('\ud83d\udc33')).toBe(true);
  });

  it('names the first field or key that cannot be stored, however deep', () => {
    expect(unstorableTextPath({ label: 'ok', rules: { markets: ['BTC', 'E\u0000TH'] } })).toBe('rules.markets[1]');
    expect(unstorableTextPath({ params: { arguments: { label: '\u0000' } } })).toBe('params.arguments.label');
    expect(unstorableTextPath({ rules: { ['k\u0000']: 1 } })).toBe('a key of rules');
    expect(unstorableTextPath(['\ud800'])).toBe('[0]');
    expect(unstorableTextPath('\u0000')).toBe('the value');
    expect(unstorableTextPath({ a: 1, b: [true, null, 'fine'] })).toBeUndefined();
  });

  it('walks deeply nested input without exhausting the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(unstorableTextPath(deep)).toMatch(/^\[0\]/);
  });

  it('says which field and what to do', () => {
    expect(unstorableTextMessage('label')).toBe(
      '"label" contains a character that cannot be stored (the NUL character U+0000, or an unpaired UTF-16 surrogate). Remove it and send the request again.',
    );
  });
});

/**
 * The one rule for text the services accept: PostgreSQL cannot store the NUL character (U+0000) in text
 * or JSON, and an unpaired UTF-16 surrogate would be replaced silently on its way to UTF-8. A request
 * carrying either anywhere (a value or a key, however deep) is refused with 400 naming the field, on
 * every service, before anything is written.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path (`label`, `rules.market`, `positionIds[2]`) of the first string or key in a parsed JSON value
 * that PostgreSQL cannot store, or undefined when every one can. Walks iteratively, so deeply nested
 * input cannot exhaust the stack.
 */
export function unstorableTextPath(value: unknown, root = ''): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path || 'the value';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], `${path}[${i}]`]);
      continue;
    }
    const entries = Object.entries(current as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, inner] = entries[i]!;
      const keyPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return path ? `a key of ${path}` : 'a key';
      stack.push([inner, keyPath]);
    }
  }
  return undefined;
}

/** The message of a refusal: which field, what is wrong, what to do. */
export function unstorableTextMessage(field: string): string {
  const name = /^(the value|a key)/.test(field) ? field : `"${field.replace(/[\u0000-\u001f]/g, '?')}"`;
  return (
    `${name} contains a character that cannot be stored (the NUL character U+0000, or an unpaired UTF-16 ` +
    `surrogate). Remove it and send the request again.`
  );
}

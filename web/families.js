// The game families the app can draw, by data: GET /variants names each family's client module
// and its clock presets; app.js loads each named module, which registers its family here; a
// game of a family nobody registered is refused loudly (never drawn as another family).

import { S, t } from './core.js';

const registered = new Map();

/** Registers `family`'s client: `{ render(head), afterRender(), keptOrder(view), useHint(x),
 * hintText(x), analysisRow(row), analysisHead(), showsRackSize }`. */
export function register(family, client) {
  registered.set(family, client);
}

/** The client of `family`; an unknown one throws (the app shows the error instead of a game). */
export function family(id) {
  const client = registered.get(id);
  if (!client) throw new Error(t('unknown_family', { family: id }));
  return client;
}

/** What GET /variants says of `family`: its client module and clock presets. */
export function familyInfo(id) {
  const info = (S.families || []).find((f) => f.id === id);
  if (!info) throw new Error(t('unknown_family', { family: id }));
  return info;
}

/** The time controls the new-game form offers for `family`, the first the default. */
export const presets = (id) => familyInfo(id).clock_presets;

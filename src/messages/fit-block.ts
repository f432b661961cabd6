/**
 * Fits one block (and the elements inside it) to Slack's per-field limits. Works on the
 * JSON shape, so it handles every block type we build and leaves unknown ones alone.
 */
import { BLOCK_KIT_LIMITS as L } from './block-kit-limit-table.js';
import type { KnownBlock } from './block-kit-types.js';
import { truncateId, truncateMrkdwn, truncatePlain } from './truncate-mrkdwn.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fitTextObject(t: unknown, max: number): unknown {
  if (!isObj(t) || typeof t['text'] !== 'string') return t;
  const text = t['type'] === 'mrkdwn' ? truncateMrkdwn(t['text'], max) : truncatePlain(t['text'], max);
  return text === t['text'] ? t : { ...t, text };
}

function cutString(o: Obj, key: string, max: number): void {
  const v = o[key];
  if (typeof v === 'string' && v.length > max) o[key] = truncateId(v, max);
}

function fitConfirm(c: unknown): unknown {
  if (!isObj(c)) return c;
  return {
    ...c,
    title: fitTextObject(c['title'], L.confirmTitle),
    text: fitTextObject(c['text'], L.confirmText),
    confirm: fitTextObject(c['confirm'], L.confirmButton),
    deny: fitTextObject(c['deny'], L.confirmButton),
  };
}

function fitOption(o: unknown): unknown {
  if (!isObj(o)) return o;
  const out: Obj = { ...o, text: fitTextObject(o['text'], L.optionText) };
  if ('description' in o) out['description'] = fitTextObject(o['description'], L.optionDescription);
  cutString(out, 'value', L.optionValue);
  cutString(out, 'url', L.url);
  return out;
}

const OPTION_LIMITS: Record<string, number> = {
  overflow: L.overflowOptions,
  checkboxes: L.checkboxOptions,
  radio_buttons: L.checkboxOptions,
};

function fitElement(e: unknown): unknown {
  if (!isObj(e)) return e;
  const out: Obj = { ...e };
  cutString(out, 'action_id', L.actionId);
  if (e['type'] === 'button') {
    out['text'] = fitTextObject(e['text'], L.buttonText);
    cutString(out, 'value', L.buttonValue);
  }
  if (e['type'] === 'image') cutString(out, 'alt_text', L.imageAltText);
  cutString(out, 'url', L.url);
  if ('placeholder' in e) out['placeholder'] = fitTextObject(e['placeholder'], L.placeholder);
  if ('confirm' in e) out['confirm'] = fitConfirm(e['confirm']);
  if (Array.isArray(e['options'])) {
    const max = OPTION_LIMITS[String(e['type'])] ?? L.selectOptions;
    out['options'] = e['options'].slice(0, max).map(fitOption);
  }
  if (Array.isArray(e['option_groups'])) {
    out['option_groups'] = e['option_groups'].slice(0, L.selectOptions).map((g: unknown) =>
      isObj(g)
        ? {
            ...g,
            label: fitTextObject(g['label'], L.optionText),
            options: Array.isArray(g['options']) ? g['options'].slice(0, L.selectOptions).map(fitOption) : [],
          }
        : g,
    );
  }
  return out;
}

export function fitBlock(block: KnownBlock): KnownBlock {
  const b: Obj = { ...(block as unknown as Obj) };
  cutString(b, 'block_id', L.blockId);
  switch (b['type']) {
    case 'section':
      if ('text' in b) b['text'] = fitTextObject(b['text'], L.sectionText);
      if (Array.isArray(b['fields'])) {
        b['fields'] = b['fields'].slice(0, L.sectionFields).map((f) => fitTextObject(f, L.sectionFieldText));
      }
      if ('accessory' in b) b['accessory'] = fitElement(b['accessory']);
      break;
    case 'header':
      b['text'] = fitTextObject(b['text'], L.headerText);
      break;
    case 'context':
      if (Array.isArray(b['elements'])) {
        b['elements'] = b['elements']
          .slice(0, L.contextElements)
          .map((el: unknown) =>
            isObj(el) && el['type'] === 'image' ? fitElement(el) : fitTextObject(el, L.contextText),
          );
      }
      break;
    case 'actions':
      if (Array.isArray(b['elements'])) {
        b['elements'] = b['elements'].slice(0, L.actionsElements).map(fitElement);
      }
      break;
    case 'input':
      b['label'] = fitTextObject(b['label'], L.inputLabel);
      if ('hint' in b) b['hint'] = fitTextObject(b['hint'], L.inputHint);
      b['element'] = fitElement(b['element']);
      break;
    case 'image':
      cutString(b, 'alt_text', L.imageAltText);
      cutString(b, 'image_url', L.url);
      if ('title' in b) b['title'] = fitTextObject(b['title'], L.imageAltText);
      break;
  }
  return b as unknown as KnownBlock;
}

// The resource kit's texts (namespace `kit`): what every admin list, form, filter and detail page says, and
// the console-wide notices and session timer. Thai in th.ts, with the same keys.
import type { Translation } from './translation.ts';

const kit = {
  list: {
    search: 'Search',
  },
} as const;

export default kit;

declare module 'i18next' {
  interface ResourceNamespaceMap {
    kit: Translation<typeof kit>;
  }
}

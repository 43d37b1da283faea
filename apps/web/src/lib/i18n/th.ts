import type kit from './en.ts';
import type { Translation } from './translation.ts';

const th: Translation<typeof kit> = {
  list: {
    search: 'ค้นหา',
  },
};

export default th;

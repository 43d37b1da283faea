// Console tests: lazy pages load through real dynamic imports, which on a busy machine take longer than
// Testing Library's default second to appear.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });

import { AppProvider } from './provider.tsx';
import { CenteredLayout } from './layouts/centered-layout.tsx';
import { ComingSoonPage } from './routes/coming-soon.tsx';

export function App() {
  return (
    <AppProvider>
      <CenteredLayout>
        <ComingSoonPage />
      </CenteredLayout>
    </AppProvider>
  );
}

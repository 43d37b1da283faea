// The pages of alerts: the alerts page (docs/decisions/038). A record's alerts show on its own page.
export { AlertsPage as AlertListPage } from './components/alerts-page.tsx';

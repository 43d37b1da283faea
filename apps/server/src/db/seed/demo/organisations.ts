// Command centers (one per region) and service providers (a pharmacy, a courier and a nurse provider per region).
import { DAY } from '../demo-series.js';
import { regions, type Region } from '../reference-data.js';
import { streetAddress, type SeedContext } from './context.js';

export type ProviderType = 'pharmacy' | 'courier' | 'nurse';

const centerNames: Record<Region['key'], { title: string; street: string; houseNumber: string }> = {
  bangkok: { title: 'Bangkok Command Center', street: 'Rama IV Road', houseNumber: '1873' },
  'chiang-mai': { title: 'Chiang Mai Command Center', street: 'Huay Kaew Road', houseNumber: '110' },
  phuket: { title: 'Phuket Command Center', street: 'Chao Fa Road', houseNumber: '52/7' },
};

const providerTitles: Record<Region['key'], Record<ProviderType, string>> = {
  bangkok: {
    pharmacy: 'Sukhumvit Care Pharmacy',
    courier: 'Siam Express Medical Courier',
    nurse: 'Bangkok Home Nursing',
  },
  'chiang-mai': {
    pharmacy: 'Nimman Health Pharmacy',
    courier: 'Lanna Swift Delivery',
    nurse: 'Northern Home Care Nurses',
  },
  phuket: {
    pharmacy: 'Andaman Pharmacy',
    courier: 'Island Courier Services',
    nurse: 'Phuket Visiting Nurses',
  },
};

export function buildOrganisations({ random, id, adminId, stamp }: SeedContext) {
  const commandCenterRows = regions.map((region) => {
    const place = region.places[0]!;
    const names = centerNames[region.key];
    return {
      id: id('command-center', region.key),
      title: names.title,
      address: {
        title: names.title,
        street: names.street,
        houseNumber: names.houseNumber,
        district: place.district,
        city: place.city,
        county: place.county,
        postalCode: place.postalCode,
        country: 'Thailand',
        geo: { lat: place.lat, lng: place.lng },
      },
      createdByUserId: adminId,
      ...stamp(400 * DAY),
    };
  });
  const centerOf = (region: Region) => id('command-center', region.key);

  const providerId = (region: Region, type: ProviderType) => id('service-provider', region.key, type);
  const providerAddress = new Map<string, Record<string, unknown>>();
  const serviceProviderRows = regions.flatMap((region) =>
    (['pharmacy', 'courier', 'nurse'] as const).map((type) => {
      const title = providerTitles[region.key][type];
      const { address } = streetAddress(random, random.pick(region.places), title);
      providerAddress.set(providerId(region, type), address);
      return {
        id: providerId(region, type),
        title,
        type,
        address,
        // The Phuket courier has paused its contract: a disabled provider to show in lists.
        isEnabled: !(region.key === 'phuket' && type === 'courier'),
        createdByUserId: adminId,
        ...stamp((380 - regions.indexOf(region) * 10) * DAY),
      };
    }),
  );
  return {
    commandCenters: commandCenterRows,
    serviceProviders: serviceProviderRows,
    centerOf,
    providerId,
    providerAddress,
  };
}

export type Organisations = ReturnType<typeof buildOrganisations>;

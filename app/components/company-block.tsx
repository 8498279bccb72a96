import { countryName } from '#app/lib/countries.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { CompanyInfo } from '#contract/sites.ts';

/** What a block shows of the company (the footer has the whole Company info, an invoice these). */
type BlockCompany = Pick<
  CompanyInfo,
  'name' | 'address' | 'kvk' | 'city' | 'country' | 'tradenames' | 'vat_numbers'
>;
type BlockProps = { company: BlockCompany; site: string };

/** The company's country by name in the page's language, never as a bare code. */
function CountryName({ code }: { code: string }) {
  const { locale } = useRootData();
  return <>{countryName(code, locale)}</>;
}

function Registration({ company }: { company: BlockCompany }) {
  const { t } = useTranslation();
  return (
    <>
      {company.kvk && <div>{t('footer.registration', { kvk: company.kvk })}</div>}
      {company.vat_numbers.map((vat) => (
        <div key={vat}>{t('footer.vat', { vat })}</div>
      ))}
    </>
  );
}

/** Company 1: the full address with registration and VAT numbers. */
function FullAddressBlock({ company }: BlockProps) {
  return (
    <address className="mb-0">
      <strong>{company.name}</strong>
      <div>{company.address}</div>
      <div>
        {company.city}, <CountryName code={company.country} />
      </div>
      <Registration company={company} />
    </address>
  );
}

/** Company 5: operated-by line with the trade names, then the address. */
function OperatedByBlock({ company, site }: BlockProps) {
  const { t } = useTranslation();
  return (
    <address className="mb-0">
      <div>{t('footer.operatedBy', { site, company: company.name })}</div>
      {company.tradenames.length > 0 && <div>{company.tradenames.join(' · ')}</div>}
      <div>
        {company.address}, {company.city}, <CountryName code={company.country} />
      </div>
      <Registration company={company} />
    </address>
  );
}

/** Company 6: a short block, name and town only. */
function ShortBlock({ company }: BlockProps) {
  return (
    <address className="mb-0">
      <strong>{company.name}</strong> · {company.city}, <CountryName code={company.country} />
    </address>
  );
}

const blocks: Record<number, (props: BlockProps) => React.ReactNode> = {
  1: FullAddressBlock,
  5: OperatedByBlock,
  6: ShortBlock,
};

/** Whether the company's block carries its registration and VAT numbers (the short one does not). */
export function blockShowsRegistration(companyId: number): boolean {
  return (blocks[companyId] ?? FullAddressBlock) !== ShortBlock;
}

/** The company address in the footer; companies 1, 5 and 6 have their own blocks (spec §6). */
export function CompanyBlock({
  companyId,
  company,
  site,
}: {
  companyId: number;
  company: BlockCompany;
  site: string;
}) {
  const Block = blocks[companyId] ?? FullAddressBlock;
  return <Block company={company} site={site} />;
}

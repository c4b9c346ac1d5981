import { useTranslations } from 'next-intl';

export default function ShopNotFound() {
  const t = useTranslations('Shop.notFound');
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-3 px-4 py-10">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <p className="text-slate-600">{t('text')}</p>
    </main>
  );
}

// ApexCharts ships its opt-in feature modules without type declarations; they are imported for their side effect.
declare module 'apexcharts/features/keyboard';
declare module 'apexcharts/features/legend';

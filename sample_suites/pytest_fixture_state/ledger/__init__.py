"""A small invoicing library: money, VAT, a product catalog, discounts and invoices."""

from stockdb import api
from stockdb.validation import ValidationError
from stockdb.tests.base import DatabaseTestCase


class ProductTest(DatabaseTestCase):
    def test_add_and_name(self):
        self.add("SKU-0001", "Hex bolt")
        self.assertEqual(api.product_name("SKU-0001", conn=self.conn), "Hex bolt")

    def test_name_is_stripped(self):
        self.add("SKU-0001", "  Hex bolt ")
        self.assertEqual(api.product_name("SKU-0001", conn=self.conn), "Hex bolt")

    def test_new_product_has_zero_stock(self):
        self.add("SKU-0001")
        self.assertEqual(api.on_hand("SKU-0001", conn=self.conn), 0)

    def test_duplicate_rejected(self):
        self.add("SKU-0001")
        with self.assertRaises(ValidationError):
            self.add("SKU-0001")

    def test_invalid_sku_rejected(self):
        with self.assertRaises(ValidationError):
            self.add("BOLT")

    def test_empty_name_rejected(self):
        with self.assertRaises(ValidationError):
            self.add("SKU-0001", "   ")

    def test_unknown_product_name(self):
        with self.assertRaises(api.UnknownProduct):
            api.product_name("SKU-9999", conn=self.conn)


class StockTest(DatabaseTestCase):
    def setUp(self):
        super().setUp()
        self.add("SKU-0100", "Washer", on_hand=10)

    def test_set_stock(self):
        api.set_stock("SKU-0100", 3, conn=self.conn)
        self.assertEqual(api.on_hand("SKU-0100", conn=self.conn), 3)

    def test_set_stock_from_string(self):
        api.set_stock("SKU-0100", "25", conn=self.conn)
        self.assertEqual(api.on_hand("SKU-0100", conn=self.conn), 25)

    def test_set_stock_unknown(self):
        with self.assertRaises(api.UnknownProduct):
            api.set_stock("SKU-0999", 1, conn=self.conn)

    def test_set_stock_negative(self):
        with self.assertRaises(ValidationError):
            api.set_stock("SKU-0100", -1, conn=self.conn)

    def test_receive_adds(self):
        api.receive("SKU-0100", 5, conn=self.conn)
        self.assertEqual(api.on_hand("SKU-0100", conn=self.conn), 15)

    def test_on_hand_unknown(self):
        with self.assertRaises(api.UnknownProduct):
            api.on_hand("SKU-0999", conn=self.conn)

    def test_available_without_reservations(self):
        self.assertEqual(api.available("SKU-0100", conn=self.conn), 10)


class ReserveTest(DatabaseTestCase):
    def setUp(self):
        super().setUp()
        self.add("SKU-0200", "Spring", on_hand=4)

    def test_reserve_reduces_available(self):
        api.reserve("SKU-0200", 3, conn=self.conn)
        self.assertEqual(api.available("SKU-0200", conn=self.conn), 1)

    def test_reserve_keeps_on_hand(self):
        api.reserve("SKU-0200", 3, conn=self.conn)
        self.assertEqual(api.on_hand("SKU-0200", conn=self.conn), 4)

    def test_reserve_too_many(self):
        with self.assertRaises(api.OutOfStock):
            api.reserve("SKU-0200", 5, conn=self.conn)

    def test_reserve_zero(self):
        with self.assertRaises(ValidationError):
            api.reserve("SKU-0200", 0, conn=self.conn)

    def test_reserve_returns_ids(self):
        first = api.reserve("SKU-0200", 1, conn=self.conn)
        second = api.reserve("SKU-0200", 1, conn=self.conn)
        self.assertEqual(second, first + 1)

    def test_cancel_restores_available(self):
        rid = api.reserve("SKU-0200", 4, conn=self.conn)
        api.cancel(rid, conn=self.conn)
        self.assertEqual(api.available("SKU-0200", conn=self.conn), 4)

    def test_cancel_twice(self):
        rid = api.reserve("SKU-0200", 1, conn=self.conn)
        api.cancel(rid, conn=self.conn)
        with self.assertRaises(LookupError):
            api.cancel(rid, conn=self.conn)

    def test_fulfil_reduces_on_hand(self):
        rid = api.reserve("SKU-0200", 3, conn=self.conn)
        api.fulfil(rid, conn=self.conn)
        self.assertEqual(api.on_hand("SKU-0200", conn=self.conn), 1)
        self.assertEqual(api.available("SKU-0200", conn=self.conn), 1)

    def test_fulfil_unknown(self):
        with self.assertRaises(LookupError):
            api.fulfil(12345, conn=self.conn)

    def test_pending_lists_in_order(self):
        self.add("SKU-0201", "Clip", on_hand=1)
        api.reserve("SKU-0201", 1, conn=self.conn)
        api.reserve("SKU-0200", 1, conn=self.conn)
        self.assertEqual(api.pending_reservations(conn=self.conn), ["SKU-0201", "SKU-0200"])


class MultiProductTest(DatabaseTestCase):
    def setUp(self):
        super().setUp()
        self.add("SKU-0300", "Left bracket", on_hand=6)
        self.add("SKU-0301", "Right bracket", on_hand=6)

    def test_reservations_are_per_sku(self):
        api.reserve("SKU-0300", 6, conn=self.conn)
        self.assertEqual(api.available("SKU-0301", conn=self.conn), 6)

    def test_reserved_sums_pending_only(self):
        rid = api.reserve("SKU-0300", 2, conn=self.conn)
        api.reserve("SKU-0300", 1, conn=self.conn)
        api.cancel(rid, conn=self.conn)
        self.assertEqual(api.reserved("SKU-0300", conn=self.conn), 1)

    def test_fulfilled_not_pending(self):
        rid = api.reserve("SKU-0301", 2, conn=self.conn)
        api.fulfil(rid, conn=self.conn)
        self.assertEqual(api.pending_reservations(conn=self.conn), [])

    def test_cannot_fulfil_cancelled(self):
        rid = api.reserve("SKU-0301", 2, conn=self.conn)
        api.cancel(rid, conn=self.conn)
        with self.assertRaises(LookupError):
            api.fulfil(rid, conn=self.conn)

    def test_out_of_stock_message(self):
        with self.assertRaisesRegex(api.OutOfStock, "SKU-0300: 6 available, 7 requested"):
            api.reserve("SKU-0300", 7, conn=self.conn)

    def test_receive_frees_capacity(self):
        api.reserve("SKU-0300", 6, conn=self.conn)
        api.receive("SKU-0300", 4, conn=self.conn)
        self.assertEqual(api.available("SKU-0300", conn=self.conn), 4)
